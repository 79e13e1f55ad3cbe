// A title taken from a first message written in markdown reads as plain words on the card and in the reader.
import { expect, test } from '@playwright/test';
import { dropFiles, IMPORTED, importSummary, openEmptyLibrary } from './app-helpers.ts';
import { SIZES } from './sizes.ts';

const ID = '0193a5c2-0000-7000-8000-00000000d001';
const t = '2026-11-29T10:00:00.000Z';
const TEXT = `${[
  { type: 'session', version: 3, id: ID, timestamp: t, cwd: '/home/test/titles' },
  {
    type: 'message',
    id: 'd0000001',
    parentId: null,
    timestamp: t,
    message: { role: 'user', content: '## Research Plan **Question**: which `cache` wins?\n\nMore words.', timestamp: 1 },
  },
]
  .map((e) => JSON.stringify(e))
  .join('\n')}\n`;
const PLAIN = 'Research Plan Question: which cache wins?';

for (const size of SIZES) {
  test.describe(size.name, () => {
    test.use(size.use);

    test('a markdown first message titles the session in plain words, on its card and in the reader', async ({ page }) => {
      await openEmptyLibrary(page);
      await dropFiles(page, [{ name: 'titles.jsonl', text: TEXT }]);
      await expect(importSummary(page)).toContainText('Added: 1', IMPORTED);
      const link = page.locator(`.session-card[data-session-id="${ID}"] a.session-title`);
      // The card has room for more of the message; both read as plain words.
      await expect(link).toHaveText(/^Research Plan Question: which cache wins\? More words\.$/);
      await link.click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(PLAIN);
    });
  });
}
