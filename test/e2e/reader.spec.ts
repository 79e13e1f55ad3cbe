import { resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { importFixture, openEmptyLibrary, shots } from './app-helpers.ts';
import { filterAfterFirstFrame, listAfterReplyFrame, markdownFromWorker, row, seriousViolations } from './reader-steps.ts';

const SAMPLE = 'samples/welcome.jsonl';

test.describe('reader', () => {
  // Import, open, axe and screenshots on a shared 2-core machine: give the test room.
  test.describe.configure({ timeout: 300_000 });

  test('the sample session in the reader: every kind of entry, the order of its first frames, attachments, filters and find, what the model sees, markdown from the worker, the phone layout and the branch navigator', async ({
    page,
    context,
  }) => {
    await test.step('the reader is rehearsed, hidden, under the idle library: every kind of sample row drawn, then gone', async () => {
      // On a page of its own, so that its watch stays there.
      const idle = await context.newPage();
      // A first open used to pay for the reader's first runs (its code, style rules and fonts): the
      // library rehearses it once its chunk is loaded, on a made-up session, and removes it after.
      await idle.addInitScript(() => {
        // Every kind of row seen while it was there, and whether any of it was ever visible or focused.
        const w = window as unknown as { rehearsal: { kinds: string[]; visible: boolean; focused: boolean; gone: boolean } };
        w.rehearsal = { kinds: [], visible: false, focused: false, gone: false };
        const kinds = ['.rd-user', '.rd-assistant', '.rd-tool', '.rd-thinking', '[data-md="html"]'];
        new MutationObserver((_, observer) => {
          const host = document.querySelector<HTMLElement>('.rd-rehearsal');
          const r = w.rehearsal;
          if (host) {
            r.kinds = kinds.filter((k) => r.kinds.includes(k) || host.querySelector(k));
            r.visible ||= [...host.querySelectorAll('.vl-row')].some((e) => e.checkVisibility({ visibilityProperty: true }));
            r.focused ||= host.contains(document.activeElement);
          } else if (r.kinds.length) {
            r.gone = true;
            observer.disconnect();
          }
        }).observe(document, { childList: true, subtree: true, attributes: true });
      });
      await openEmptyLibrary(idle);
      await idle.waitForFunction(() => (window as unknown as { rehearsal: { gone: boolean } }).rehearsal.gone);
      expect(await idle.evaluate(() => (window as unknown as { rehearsal: unknown }).rehearsal)).toEqual({
        kinds: ['.rd-user', '.rd-assistant', '.rd-tool', '.rd-thinking', '[data-md="html"]'],
        visible: false,
        focused: false,
        gone: true,
      });
      await expect(idle.locator('.rd')).toHaveCount(0);
      await idle.close();
    });

    const id = await importFixture(page, SAMPLE);
    /** Loads the library afresh. */
    const library = async () => {
      await page.goto('/');
      await expect(page.locator(`a[href="#/s/${encodeURIComponent(id)}"]`).first()).toBeAttached();
    };
    /** Loads the sample in the reader afresh (nothing a step before opened stays open). */
    const openReader = async (query: string) => {
      await page.goto(`/#/s/${encodeURIComponent(id)}${query}`);
      await page.reload();
    };

    await test.step('opens at the last message, shows every kind of entry of the sample, and passes axe', async () => {
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

    await test.step('the task that builds the reader adds no form control: the filter comes after the first frame', () =>
      filterAfterFirstFrame(page, id, library));

    await test.step("the task that delivers the worker's reply builds the page but no row: the list comes after the frame that shows it", () =>
      listAfterReplyFrame(page, id, library));

    await test.step('attachments as chips with the typed text apart, a picture as a blob: image, a text file on tap', async () => {
      await openReader('?entry=0a1b2c3d');
      const user = row(page, '0a1b2c3d');
      await expect(user).toBeInViewport();
      await expect(user.locator('.md')).toContainText("Here is this month's data");
      await expect(user.locator('.md')).not.toContainText('<attachment');
      // exact: the placeholder shown while the blob is fetched is named "chart.png (loading)"
      const picture = user.getByRole('img', { name: 'chart.png', exact: true });
      await expect(picture).toBeVisible();
      await expect(picture).toHaveAttribute('src', /^blob:/);
      await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(64);
      await user.getByText('tides-2026-11.csv', { exact: true }).click();
      await expect(user.getByText('2026-11-28,04:12,-0.4m')).toBeVisible();
    });

    await test.step('filters, find with next/previous, keyboard jumps', async () => {
      await openReader('');
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

    await test.step('what the model sees: the context with what is not sent, and the stats with a chart', async () => {
      await openReader('');
      await page.getByRole('tab', { name: 'What the model sees' }).click();
      await expect(page.getByRole('heading', { name: 'What the model sees' })).toBeVisible();
      await expect(page.locator('.rd-dropped summary')).toContainText('not part of the model context');
      // The interrupted push never got a result: the core adds a synthetic one, marked as such.
      await page.locator('.vl').evaluate((el) => {
        el.scrollTop = el.scrollHeight;
      });
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

    await test.step('markdown made in the worker replaces the plain text on screen; a fling draws skeletons, then the rows', () =>
      markdownFromWorker(page, library));

    await test.step('phone layout: 360 px, no sideways scroll, 44 px targets, dark theme', async () => {
      await page.setViewportSize({ width: 360, height: 740 });
      await page.emulateMedia({ colorScheme: 'dark' });
      await openReader('?entry=0a1b2c3d');
      await expect(row(page, '0a1b2c3d')).toBeInViewport();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      const small = await page.locator('.rd-bar button, .rd-toolbar button, .rd-toolbar select, .rd-link, .rd-more').evaluateAll(
        (els) =>
          els
            .filter((e) => (e as HTMLElement).offsetParent !== null)
            .map((e) => e.getBoundingClientRect())
            .filter((r) => r.height < 44 || r.width < 44).length,
      );
      expect(small).toBe(0);
      expect(await seriousViolations(page)).toEqual([]);
      await page.screenshot({ path: resolve(shots, 'reader-phone-dark.png') });
      await page.emulateMedia({ colorScheme: 'light' });
      await page.screenshot({ path: resolve(shots, 'reader-phone-light.png') });
    });

    await test.step('branch navigator: choose the other leaf, the URL follows, a reload keeps it', async () => {
      await page.setViewportSize({ width: 360, height: 740 });
      await page.emulateMedia({ colorScheme: 'light' });
      await openReader('');
      // On a phone the branches are one tap away, behind "View options".
      await page.getByRole('button', { name: 'View options' }).click();
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
  });

  test.describe('offline', () => {
    // What is tested is the service worker's cache.
    test.use({ serviceWorkers: 'allow' });

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
});
