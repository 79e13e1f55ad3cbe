// Count labels agree with their number: "1 entry", "1 transcript", "1 message", never "1 entries".
import { expect, test } from '@playwright/test';
import { dropFiles, fixture, IMPORTED, importSummary, openEmptyLibrary } from './app-helpers.ts';
import { showViewOptions, SIZES } from './sizes.ts';
import { toPiSession } from '../../src/core/formats/index.ts';
import { parse } from '../../src/core/index.ts';

/** The store id of another agent's file: its conversion's session id. */
const piId = (path: string) => String(parse(toPiSession(new Uint8Array(fixture(path)), { file: path })!.text).header?.id);

test.describe.configure({ timeout: 120_000 });

const ID = '0193a5c2-0000-7000-8000-00000000c001';
const t = '2026-11-29T10:00:00.000Z';
/** A session with two branches after the first answer: one holds a single model change (no text to preview), the other a question. */
const forked = [
  { type: 'session', version: 3, id: ID, timestamp: t, cwd: '/home/test/counts', title: 'Counts' },
  { type: 'message', id: 'c0000001', parentId: null, timestamp: t, message: { role: 'user', content: 'first question', timestamp: 1 } },
  {
    type: 'message',
    id: 'c0000002',
    parentId: 'c0000001',
    timestamp: t,
    message: { role: 'assistant', content: [{ type: 'text', text: 'an answer' }], provider: 'p', model: 'm', stopReason: 'stop', timestamp: 2 },
  },
  { type: 'model_change', id: 'c0000003', parentId: 'c0000002', timestamp: t, provider: 'p', modelId: 'other' },
  { type: 'message', id: 'c0000004', parentId: 'c0000002', timestamp: t, message: { role: 'user', content: 'second question', timestamp: 3 } },
]
  .map((e) => JSON.stringify(e))
  .join('\n');

for (const size of SIZES) {
  test.describe(size.name, () => {
    test.use(size.use);

    test('counts agree with their number: "1 entry", "1 subagent", "(1 transcript)"; the context counts its messages', async ({ page }) => {
      // The forked session, and a Codex parent with the child it spawned (the child's session_meta names its parent thread).
      const parent = 'other-agents/codex/h-morishita-esol-devenv-v0.104.0-spawn-parent.jsonl';
      const child = 'other-agents/codex/h-morishita-esol-devenv-v0.104.0-spawn-child.jsonl';
      await openEmptyLibrary(page);
      await dropFiles(page, [
        { name: 'counts.jsonl', text: `${forked}\n` },
        ...[parent, child].map((p) => ({ name: p.split('/').pop()!, text: fixture(p).toString('utf8') })),
      ]);
      await expect(importSummary(page)).toContainText('Added: 3', IMPORTED);

      await test.step('a one-entry branch reads "1 entry" (never "1 entries"); the context counts its messages', async () => {
        await page.goto(`/#/s/${ID}?leaf=c0000003`);
        await expect(page.getByRole('feed')).toHaveAccessibleName('Transcript: 3 items');
        if (size.phone) {
          await showViewOptions(page);
          await page.getByRole('button', { name: /Branches/ }).click();
        }
        await expect(page.getByRole('navigation', { name: 'Branches' })).toContainText('1 entry');
        await expect(page.getByRole('navigation', { name: 'Branches' })).not.toContainText('1 entries');
        if (size.phone) await page.getByRole('button', { name: /^Branches/ }).click();
        await page.goto(`/#/s/${ID}?leaf=c0000004`);
        await showViewOptions(page);
        await page.getByRole('tab', { name: /model sees/i }).click();
        await expect(page.locator('.rd-context > p.muted').first()).toContainText(/^3 messages/);
      });

      await test.step('a parent with one subagent transcript: the "1 subagent" badge opens it; its stats say "(1 transcript)"', async () => {
        const id = piId(parent);
        await page.goto('/#/');
        await expect(page.locator(`.session-card[data-session-id="${id}"] .badge`, { hasText: 'subagent' })).toHaveText('1 subagent');
        // The badge opens the child's transcript, which leads back to its parent.
        await page.locator(`.session-card[data-session-id="${id}"]`).getByRole('link', { name: '1 subagent' }).click();
        await expect(page.getByRole('navigation', { name: 'Subagent of' })).toBeVisible();
        await expect(page).toHaveURL(new RegExp(`#/s/${piId(child)}$`));
        await page.goto(`/#/s/${id}`);
        await showViewOptions(page);
        await page.getByRole('tab', { name: 'Stats' }).click();
        await expect(page.locator('.rd-family-totals caption')).toHaveText('With subagents (1 transcript)');
      });
    });
  });
}
