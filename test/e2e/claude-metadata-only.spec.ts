// A real Claude Code file whose only line is a metadata record (`teleported-from`, written when a
// web session is carried to the terminal) imports as an empty Claude Code session, titled from the
// record, and its original bytes come back unchanged.
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { dropFiles, IMPORTED, importSummary, openEmptyLibrary } from './app-helpers.ts';
import { SIZES } from './sizes.ts';

test.describe.configure({ timeout: 120_000 });

const SESSION = '3f2a9c1e-1111-4222-8333-944455556666';
const TEXT = `${JSON.stringify({ type: 'teleported-from', remoteSessionId: 'session_01QpWx7Ze9Xk', branch: 'claude/fix-login-redirect', messageCount: 0 })}\n`;
const TITLE = 'Carried from Claude Code on the web (branch claude/fix-login-redirect)';

for (const size of SIZES) {
  test.describe(size.name, () => {
    test.use(size.use);

    test('a Claude Code file holding only a teleported-from record imports as an empty Claude session, kept byte for byte', async ({ page }) => {
      await openEmptyLibrary(page);
      await dropFiles(page, [{ name: `${SESSION}.jsonl`, text: TEXT }]);
      await expect(importSummary(page)).toContainText('Added: 1', IMPORTED);
      const card = page.locator(`.session-card[data-session-id="${SESSION}"]`);
      await expect(card.locator('a.session-title')).toHaveText(TITLE);
      await expect(card.locator('.badge.agent')).toHaveText('Claude Code');
      await card.locator('details.menu > summary').click();
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download', exact: true }).click()]);
      expect(await readFile((await download.path())!, 'utf8')).toBe(TEXT);
      await card.locator('a.session-title').click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(TITLE);
    });
  });
}
