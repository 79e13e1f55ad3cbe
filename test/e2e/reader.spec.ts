import { resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { importFixture, shots } from './app-helpers.ts';

const SAMPLE = 'samples/welcome.jsonl';
const row = (page: Page, entryId: string) => page.locator(`.rd-row[data-entry="${entryId}"]`);

/** Serious or critical axe violations, as short strings. */
async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).include('.rd').analyze();
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test.describe('reader', () => {
  // Import, open, axe and screenshots on a shared 2-core machine: give each test room.
  test.describe.configure({ timeout: 120_000 });
  test('opens at the last message, shows every kind of entry of the sample, and passes axe', async ({ page }) => {
    const id = await importFixture(page, SAMPLE);
    await page.goto(`/#/s/${encodeURIComponent(id)}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Fix the tide table parser' })).toBeVisible();
    // The end is on screen: the notice after the interrupted push.
    await expect(row(page, 'd7e8f90a')).toBeInViewport();
    await expect(row(page, 'c6d7e8f9')).toContainText('Interrupted by user');
    await expect(row(page, 'c6d7e8f9')).toContainText('no result');
    // Thinking is collapsed; the global toggle opens it.
    await page.keyboard.press('g');
    await expect(row(page, 'd4e3f6a5')).toBeInViewport();
    const thinking = row(page, 'd4e3f6a5').locator('details.rd-thinking');
    await expect(thinking).not.toHaveAttribute('open', '');
    await page.getByRole('button', { name: 'Thinking' }).click();
    await expect(row(page, 'd4e3f6a5').getByText('Negative heights probably fail a regex')).toBeVisible();
    // A tool call paired with its result; the edit shows its diff.
    await expect(row(page, 'd4e3f6a5').locator('.rd-tool')).toContainText('src/parse.ts');
    await expect(row(page, 'd4e3f6a5').locator('.rd-tool')).toContainText('export function parseHeight');
    await expect(row(page, 'f6a5b8c7').locator('.rd-diff .add')).toHaveCount(1);
    // Where the other branch forks.
    await expect(row(page, 'c3d2e5f4').locator('.rd-forks')).toContainText('Another try');
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: resolve(shots, 'reader-laptop-top.png') });
  });

  test('attachments as chips with the typed text apart, a picture as a blob: image, a text file on tap', async ({ page }) => {
    const id = await importFixture(page, SAMPLE);
    await page.goto(`/#/s/${encodeURIComponent(id)}?entry=0a1b2c3d`);
    const user = row(page, '0a1b2c3d');
    await expect(user).toBeInViewport();
    await expect(user.locator('.md')).toContainText("Here is this month's data");
    await expect(user.locator('.md')).not.toContainText('<attachment');
    const picture = user.getByRole('img', { name: 'chart.png' });
    await expect(picture).toBeVisible();
    expect(await picture.getAttribute('src')).toMatch(/^blob:/);
    expect(await picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(64);
    await user.getByText('tides-2026-11.csv', { exact: true }).click();
    await expect(user.getByText('2026-11-28,04:12,-0.4m')).toBeVisible();
  });

  test('branch navigator: choose the other leaf, the URL follows, a reload keeps it', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    const id = await importFixture(page, SAMPLE);
    await page.goto(`/#/s/${encodeURIComponent(id)}`);
    await page.getByRole('button', { name: /Branches/ }).click();
    const nav = page.getByRole('navigation', { name: 'Branches' });
    await expect(nav).toBeVisible();
    await page.screenshot({ path: resolve(shots, 'reader-phone-branches.png') });
    await nav.getByRole('button', { name: /Another try/ }).click();
    await expect(page).toHaveURL(/leaf=a3bc25de/);
    await expect(row(page, 'a3bc25de')).toContainText('Branch explored and abandoned');
    await page.reload();
    await expect(row(page, 'a3bc25de')).toBeInViewport();
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: resolve(shots, 'reader-phone-other-branch.png') });
  });

  test('filters, find with next/previous, keyboard jumps', async ({ page }) => {
    const id = await importFixture(page, SAMPLE);
    await page.goto(`/#/s/${encodeURIComponent(id)}`);
    await expect(row(page, 'd7e8f90a')).toBeVisible();
    await page.getByRole('combobox', { name: 'Show' }).selectOption('user');
    await expect(page.locator('.rd-row')).toHaveCount(5);
    await page.getByRole('combobox', { name: 'Show' }).selectOption('labelled');
    await expect(page.locator('.rd-row')).toHaveCount(1);
    await expect(page.locator('.rd-row')).toContainText('the fix');
    await page.getByRole('combobox', { name: 'Show' }).selectOption('all');
    // Find reaches tool output, which is never all on screen at once.
    await page.keyboard.press('/');
    await page.getByRole('searchbox', { name: 'Find in session' }).fill('Test Files');
    await expect(page.locator('.rd-find-count')).toHaveText('1 of 1');
    await expect(row(page, 'b8c7d0e9')).toBeInViewport();
    await expect(page.locator('.rd-row.hit')).toHaveCount(1);
    await page.getByRole('searchbox', { name: 'Find in session' }).fill('parse');
    await expect(page.locator('.rd-find-count')).toHaveText(/^\d+ of \d+$/);
    const first = await page.locator('.rd-find-count').textContent();
    await page.getByRole('button', { name: 'Next match' }).click();
    await expect(page.locator('.rd-find-count')).not.toHaveText(first!);
    await page.keyboard.press('Escape');
    // Keyboard: g to the top, u to the next user message, e to the next error.
    await page.locator('.vl').focus();
    await page.keyboard.press('g');
    await expect(row(page, 'c3d2e5f4')).toBeInViewport();
    await page.keyboard.press('u');
    await page.keyboard.press('u');
    await expect(row(page, 'c5de47f0')).toBeInViewport();
    await page.keyboard.press('e');
    await expect(row(page, '1b2c3d4e')).toBeInViewport();
  });

  test('what the model sees: the context with what is not sent, and the stats with a chart', async ({ page }) => {
    const id = await importFixture(page, SAMPLE);
    await page.goto(`/#/s/${encodeURIComponent(id)}`);
    await page.getByRole('tab', { name: 'What the model sees' }).click();
    await expect(page.getByRole('heading', { name: 'What the model sees' })).toBeVisible();
    await expect(page.locator('.rd-dropped summary')).toContainText('not part of the model context');
    // The interrupted push never got a result: the core adds a synthetic one, marked as such.
    await page.locator('.vl').evaluate((el) => { el.scrollTop = el.scrollHeight; });
    await expect(page.getByText('synthetic: the call never got a result')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: resolve(shots, 'reader-laptop-context.png') });
    await page.getByRole('tab', { name: 'Stats' }).click();
    const totals = page.locator('.rd-stats-table').first();
    await expect(totals.getByRole('columnheader', { name: 'This branch' })).toBeVisible();
    await expect(totals.getByRole('columnheader', { name: 'Whole file (all branches)' })).toBeVisible();
    await expect(page.getByRole('img', { name: /Context size over \d+ turns/ })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: resolve(shots, 'reader-laptop-stats.png') });
  });

  test('phone layout: 360 px, no sideways scroll, 44 px targets, dark theme', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.emulateMedia({ colorScheme: 'dark' });
    const id = await importFixture(page, SAMPLE);
    await page.goto(`/#/s/${encodeURIComponent(id)}?entry=0a1b2c3d`);
    await expect(row(page, '0a1b2c3d')).toBeInViewport();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    const small = await page.locator('.rd-bar button, .rd-toolbar button, .rd-toolbar select, .rd-link, .rd-more').evaluateAll((els) =>
      els.filter((e) => (e as HTMLElement).offsetParent !== null).map((e) => e.getBoundingClientRect()).filter((r) => r.height < 44 || r.width < 44).length,
    );
    expect(small).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: resolve(shots, 'reader-phone-dark.png') });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.screenshot({ path: resolve(shots, 'reader-phone-light.png') });
  });

  test('a deep link works offline after a reload', async ({ page, context }) => {
    const id = await importFixture(page, SAMPLE);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 20_000 });
    await page.goto(`/#/s/${encodeURIComponent(id)}?entry=b8c7d0e9`);
    await expect(row(page, 'b8c7d0e9')).toBeInViewport();
    await context.setOffline(true);
    await page.reload();
    await expect(row(page, 'b8c7d0e9')).toBeInViewport();
    await context.setOffline(false);
  });
});
