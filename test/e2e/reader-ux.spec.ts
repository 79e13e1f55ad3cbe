// The reader's fixes of issue 10 (items 3, 5, 7, 9, 10, 11), each checked in real Chromium.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { dropFiles, openEmptyLibrary } from './app-helpers.ts';
import { UX, uxSession } from './reader-ux-fixture.ts';

const row = (page: Page, entryId: string) => page.locator(`.rd-row[data-entry="${entryId}"]`);

/** Imports the UX session by a drop and opens it in the reader (at `entry` when given). */
async function openUx(page: Page, entry?: string): Promise<void> {
  await openEmptyLibrary(page);
  await dropFiles(page, [{ name: 'ux.jsonl', text: uxSession() }]);
  await expect(page.locator(`a[href="#/s/${encodeURIComponent(UX.id)}"]`).first()).toBeAttached({ timeout: 20_000 });
  await page.goto(`/#/s/${encodeURIComponent(UX.id)}${entry ? `?entry=${entry}` : ''}`);
  await expect(row(page, entry ?? UX.last)).toBeInViewport();
}

test.describe('reader UX (issue 10)', () => {
  test.describe.configure({ timeout: 120_000 });

  test('find opens what holds the current hit (closed thinking, the tail of a tool output) and says "Searching…" until it knows', async ({ page }) => {
    await openUx(page);
    const assistant = row(page, UX.assistant);
    // Every text the count shows, recorded as it changes (no sampling, no timing).
    await page.evaluate(() => {
      const w = window as unknown as { __counts: string[] };
      w.__counts = [];
      new MutationObserver(() => {
        const el = document.querySelector('.rd-find-count');
        if (el) w.__counts.push(el.textContent ?? '');
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await page.keyboard.press('/');
    const box = page.getByRole('searchbox', { name: 'Find in session' });
    await box.fill('quokka');
    await expect(page.locator('.rd-find-count')).toHaveText('1 of 1');
    const counts = await page.evaluate(() => (window as unknown as { __counts: string[] }).__counts);
    expect(counts).toContain('Searching…');
    expect(counts).not.toContain('No matches');
    // The thinking that holds the hit is open and its text on screen.
    await expect(assistant.locator('details.rd-thinking').first()).toHaveAttribute('open', '');
    await expect(assistant.getByText('The quokka hides in the thinking.')).toBeVisible();
    // Past "N more lines": the output opens to show line 25.
    await box.fill('wombat');
    await expect(page.locator('.rd-find-count')).toHaveText('1 of 1');
    await expect(assistant.locator('.rd-output pre').filter({ hasText: 'line 25: the wombat is here' })).toBeVisible();
    await expect(assistant.getByRole('button', { name: 'Show less' })).toBeVisible();
    // A word that is nowhere: "No matches" only once the answer came.
    await box.fill('no-such-word-anywhere');
    await expect(page.locator('.rd-find-count')).toHaveText('No matches');
  });

  test('thinking with only a signature says it is encrypted reasoning; thinking headers show that they open', async ({ page }) => {
    await openUx(page, UX.assistant);
    const thinking = row(page, UX.assistant).locator('details.rd-thinking');
    await expect(thinking).toHaveCount(2);
    const signed = thinking.nth(1);
    await expect(signed.locator('summary')).toHaveText('Thinking (encrypted)');
    await signed.locator('summary').click();
    await expect(signed.getByText(/Encrypted reasoning/)).toBeVisible();
    // A chevron before each header, turned when open.
    const chevron = (i: number) =>
      thinking
        .nth(i)
        .locator('summary')
        .evaluate((el) => {
          const s = getComputedStyle(el, '::before');
          return { content: s.content, transform: s.transform, width: Number.parseFloat(s.width) };
        });
    const closed = await chevron(0);
    const open = await chevron(1);
    expect(closed.content).not.toBe('none');
    expect(closed.width).toBeGreaterThan(3);
    expect(open.transform).not.toBe(closed.transform);
  });
});
