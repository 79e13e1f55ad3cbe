// A title taken from a first message written in markdown reads as plain words on the card and in the
// reader; a fork, which starts like the session it came from, says which one that is.
import { expect, test } from '@playwright/test';
import { dropFiles, fixture, IMPORTED, importSummary, openEmptyLibrary } from './app-helpers.ts';
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

// A real pi fork and the session it was forked from: both start with the same first message.
const PARENT = fixture('real/frinfo702-dotfiles-subagent-parent.jsonl').toString('utf8');
const FORK = fixture('real/frinfo702-dotfiles-fork-child.jsonl').toString('utf8');
const headerOf = (text: string) => JSON.parse(text.split('\n')[0]);
/** The first user message's text (a string, or its text parts). */
const firstPrompt = (text: string): string => {
  const content = text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .find((r) => r.type === 'message' && r.message.role === 'user')?.message.content;
  return typeof content === 'string' ? content : content.map((p: { text?: string }) => p.text ?? '').join('');
};

for (const size of SIZES) {
  test.describe(size.name, () => {
    test.use(size.use);

    test('a markdown first message titles the session in plain words; a fork says "Fork of …"', async ({ page }) => {
      await openEmptyLibrary(page);
      await dropFiles(page, [
        { name: 'titles.jsonl', text: TEXT },
        { name: 'parent.jsonl', text: PARENT },
        { name: 'fork.jsonl', text: FORK },
      ]);
      await expect(importSummary(page)).toContainText('Added: 3', IMPORTED);

      await test.step('a markdown first message titles the session in plain words, on its card and in the reader', async () => {
        const link = page.locator(`.session-card[data-session-id="${ID}"] a.session-title`);
        // The card has room for more of the message; both read as plain words.
        await expect(link).toHaveText(/^Research Plan Question: which cache wins\? More words\.$/);
        await link.click();
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(PLAIN);
      });

      await test.step('a fork and the session it came from start alike; the fork says "Fork of …" on its card and in the reader', async () => {
        const parentId = headerOf(PARENT).id as string;
        const forkId = headerOf(FORK).id as string;
        // pi's fork header names the parent's file, `…/<timestamp>_<id>.jsonl`.
        expect(headerOf(FORK).parentSession).toMatch(new RegExp(`_${parentId}\\.jsonl$`));
        const prompt = firstPrompt(PARENT);
        expect(firstPrompt(FORK)).toBe(prompt);
        await page.goto('/#/');
        const forkCard = page.locator(`.session-card[data-session-id="${forkId}"]`);
        const parentCard = page.locator(`.session-card[data-session-id="${parentId}"]`);
        await expect(forkCard.locator('a.session-title')).toHaveText(prompt);
        await expect(parentCard.locator('a.session-title')).toHaveText(prompt);
        await expect(forkCard.locator('.fork-of')).toHaveText(new RegExp(`^Fork of ${prompt} · `));
        await expect(forkCard.locator('.fork-of a')).toHaveAttribute('href', `#/s/${parentId}`);
        await expect(parentCard.locator('.fork-of')).toHaveCount(0);
        await forkCard.locator('a.session-title').click();
        const banner = page.getByRole('navigation', { name: 'Fork of' });
        await expect(banner).toHaveText(`Fork of ← ${prompt}`);
        await banner.getByRole('link').click();
        await expect(page).toHaveURL(new RegExp(`#/s/${parentId}$`));
        await expect(page.getByRole('navigation', { name: 'Fork of' })).toHaveCount(0);
      });
    });
  });
}
