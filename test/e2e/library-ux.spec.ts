// The library, its storage meter and the phone layout, in real Chromium.
import { expect, test, type Page } from '@playwright/test';
import { card, dropFiles, fixture, importSummary, IMPORTED, makeSession, openEmptyLibrary, SAMPLE } from './app-helpers.ts';
import { UX, uxSession } from './reader-ux-fixture.ts';

async function importSample(page: Page, more: Array<{ name: string; text: string }> = []): Promise<void> {
  await openEmptyLibrary(page);
  await dropFiles(page, [{ name: 'welcome.jsonl', text: fixture(SAMPLE.path).toString('utf8') }, ...more]);
  await expect(importSummary(page)).toHaveText(`Added: ${1 + more.length}`, IMPORTED);
  await page.getByRole('region', { name: 'Import' }).getByRole('button', { name: 'Close' }).click();
}

/** A session with no title of its own (the library shows its first message). */
function untitled(id: string): string {
  return makeSession(id, 'x')
    .split('\n')
    .map((line, i) => (i === 0 ? JSON.stringify({ ...JSON.parse(line), title: undefined }) : line))
    .join('\n');
}

test.describe('library', () => {
  test('search snippets mark the match as text; the rename field starts with the title on screen; "?" in the reader opens the keyboard help', async ({
    page,
  }) => {
    await test.step('search snippets mark the match as text; the rename field starts with the title on screen', async () => {
      const hostile = makeSession('55555555-0000-4000-8000-000000000001', 'Hostile').replace(
        'Question about Hostile',
        'a <b onmouseover=alert(1)>tidal</b> line <img src=x onerror=alert(2)>',
      );
      await importSample(page, [
        { name: 'untitled.jsonl', text: untitled('66666666-0000-4000-8000-000000000001') },
        { name: 'hostile.jsonl', text: hostile },
      ]);
      await page.getByLabel('Search sessions').fill('tidal');
      const result = (title: string) => page.locator('.search-session').filter({ has: page.locator('.session-title', { hasText: title }) });
      const snippet = result('Hostile').locator('.search-hit');
      await expect(snippet.locator('mark')).toHaveText(['tidal']);
      // The session's markup is text: no <b> or <img> element came from it.
      await expect(snippet).toContainText('<b onmouseover=alert(1)>');
      expect(await result('Hostile').locator('b, img').count()).toBe(0);
      await page.getByLabel('Search sessions').fill('NEGATIVE heights');
      await expect(result(SAMPLE.title).locator('.search-hit mark').first()).toHaveText(/^(negative|heights)$/i);
      await page.getByLabel('Search sessions').fill('');

      await card(page, SAMPLE.title).getByLabel(`Actions for ${SAMPLE.title}`).click();
      await card(page, SAMPLE.title).getByRole('button', { name: 'Rename' }).click();
      await expect(page.getByLabel('New title')).toHaveValue(SAMPLE.title);
      await page.getByRole('button', { name: 'Cancel' }).click();
      // No title of its own: the field starts with what the row shows.
      const shown = 'Question about x';
      await card(page, shown).getByLabel(`Actions for ${shown}`).click();
      await card(page, shown).getByRole('button', { name: 'Rename' }).click();
      await expect(page.getByLabel('New title')).toHaveValue(shown);
    });

    await test.step('"?" in the reader opens the keyboard help; Escape closes it', async () => {
      await page.getByRole('button', { name: 'Cancel' }).click();
      await page.goto(`/#/s/${encodeURIComponent(SAMPLE.id)}`);
      await expect(page.locator('.rd-row').last()).toBeVisible();
      await page.keyboard.press('Shift+Slash');
      const help = page.getByRole('dialog', { name: 'Keyboard' });
      await expect(help).toBeVisible();
      await expect(help).toContainText('next / previous user message');
      await page.keyboard.press('Escape');
      await expect(help).toHaveCount(0);
    });
  });
});

test.describe('storage meter', () => {
  // The ~2^32 and lagging-usage figures cannot be produced here (CDP Storage.overrideQuotaForOrigin
  // changes what Chromium enforces, not what estimate() reports): test/ui/models/storage-figures.test.ts
  // covers which figures the meter drops. This checks the meter itself in the browser.
  test('shows the library’s own total beside the browser’s estimate; a refused persist() says what it means', async ({ page }) => {
    // Chromium decides persist() by its own heuristics and cannot be driven to refuse: answer as a refusing browser does.
    await page.addInitScript(() => {
      navigator.storage.persist = async () => false;
    });
    await importSample(page, [{ name: 'other.jsonl', text: makeSession('88888888-0000-4000-8000-000000000002', 'Other') }]);
    await page.getByRole('button', { name: 'Settings' }).click();
    const meter = page.locator('.storage-meter');
    const kb = (fixture(SAMPLE.path).length + makeSession('88888888-0000-4000-8000-000000000002', 'Other').length) / 1024;
    await expect(meter.locator('.storage-own')).toHaveText(`Sessions: ${kb < 10 ? kb.toFixed(1) : Math.round(kb)}\u00a0KB in 2 sessions`);
    await expect(meter).toContainText(/Browser's estimate: [\d.]+\u00a0[KMG]?B of [\d.]+\u00a0[KMGT]B used/);
    const value = Number(await meter.locator('meter').getAttribute('value'));
    expect(value).toBeGreaterThan(0);
    expect(value).toBeLessThan(1);
    // The automatic ask after the import was refused: the meter says what that means.
    await expect(meter.getByRole('status')).toContainText('may delete them without asking');
    await expect(meter.getByRole('status')).toContainText('Export everything');
  });
});

for (const width of [360, 390]) {
  test.describe(`phone layout at ${width} px`, () => {
    test.use({ viewport: { width, height: 740 }, hasTouch: true, isMobile: true });

    test('#N stays beside a long model name; sizes stay whole, the menu keeps off the edges, messages leave the last row visible, the title stays on one line', async ({
      page,
    }) => {
      test.setTimeout(150_000);
      await test.step('#N stays on the line beside a long model name', async () => {
        await openEmptyLibrary(page);
        await dropFiles(page, [{ name: 'ux.jsonl', text: uxSession() }]);
        await expect(page.locator(`a[href="#/s/${encodeURIComponent(UX.id)}"]`).first()).toBeAttached({ timeout: 20_000 });
        await page.goto(`/#/s/${encodeURIComponent(UX.id)}?entry=${UX.reply}`);
        const meta = page.locator(`.rd-row[data-entry="${UX.reply}"] .rd-meta`).first();
        await expect(meta).toBeInViewport();
        await expect(meta.locator('.rd-model')).toHaveText(UX.model);
        // Both boxes from one moment: the list may still be placing rows around the deep link's entry.
        const [link, model] = await meta.evaluate((el) =>
          ['.rd-link', '.rd-model'].map((s) => {
            const r = el.querySelector(s)!.getBoundingClientRect();
            return { x: r.x, y: r.y, width: r.width, height: r.height };
          }),
        );
        // Beside, not below: to the right of the model name, overlapping it vertically, inside the screen.
        expect(link.x).toBeGreaterThanOrEqual(model.x + model.width - 0.5);
        expect(link.y).toBeLessThan(model.y + model.height);
        expect(link.y + link.height).toBeGreaterThan(model.y);
        expect(link.x + link.width).toBeLessThanOrEqual(width);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      });

      await test.step('sizes stay whole, the menu keeps off the edges, messages leave the last row visible, the title stays on one line', async () => {
        // Messages stay until the test has measured them: the page's clock runs only when told.
        await page.clock.install();
        await page.goto('/');
        await expect(page.locator(`a[href="#/s/${encodeURIComponent(UX.id)}"]`).first()).toBeAttached();
        const more = Array.from({ length: 7 }, (_, i) => ({
          name: `s${i}.jsonl`,
          text: makeSession(`77777777-0000-4000-8000-00000000000${i}`, `Session ${i} with a rather long title that wraps on a phone`),
        }));
        await dropFiles(page, [{ name: 'welcome.jsonl', text: fixture(SAMPLE.path).toString('utf8') }, ...more]);
        await expect(importSummary(page)).toHaveText(`Added: ${1 + more.length}`, IMPORTED);
        await page.getByRole('region', { name: 'Import' }).getByRole('button', { name: 'Close' }).click();
        // Nothing of a row covers its menu button (a long model name wraps instead).
        const covered = await page.locator('.session-card .menu summary').evaluateAll(
          (els) =>
            els.filter((el) => {
              const r = el.getBoundingClientRect();
              const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
              return r.top >= 0 && r.bottom <= innerHeight && !el.contains(hit);
            }).length,
        );
        expect(covered).toBe(0);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        // Every size in the facts is one unbroken piece ("3.2 KB", never "3.2 / KB").
        const broken = await page
          .locator('.facts .fact:not(.long)')
          .evaluateAll((els) => els.filter((el) => el.getClientRects().length > 1).map((el) => el.textContent));
        expect(broken).toEqual([]);
        expect(await page.locator('.facts .fact', { hasText: /\d KB$/ }).count()).toBeGreaterThan(0);

        // The session menu keeps 8 px or more from both edges.
        await card(page, SAMPLE.title).getByLabel(`Actions for ${SAMPLE.title}`).click();
        const menu = (await card(page, SAMPLE.title).getByRole('group', { name: 'Session actions' }).boundingBox())!;
        expect(menu.x).toBeGreaterThanOrEqual(8);
        expect(menu.x + menu.width).toBeLessThanOrEqual(width - 8);
        await page.keyboard.press('Escape');

        // Three messages at once; scrolled to the end, the last row is above them.
        for (const n of [1, 2, 3]) {
          await card(page, SAMPLE.title).getByLabel(`Actions for ${SAMPLE.title}`).click();
          const download = page.waitForEvent('download');
          await card(page, SAMPLE.title).getByRole('button', { name: 'Download', exact: true }).click();
          await download;
          await expect(page.locator('.toast')).toHaveCount(n);
        }
        // The room below the last row follows the messages' height one frame later (a ResizeObserver): wait for it.
        await expect
          .poll(() =>
            page.evaluate(() => {
              const room = Number.parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--toasts-h'));
              return room >= Math.ceil(document.querySelector('.toasts')!.getBoundingClientRect().height);
            }),
          )
          .toBe(true);
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        const last = (await page.locator('.session-card').last().boundingBox())!;
        const toasts = (await page.locator('.toasts').boundingBox())!;
        await expect.poll(async () => (await page.locator('.session-card').last().boundingBox())!.y).toBe(last.y);
        expect(last.y + last.height).toBeLessThanOrEqual(toasts.y);

        // The Install button appears (the event Chromium fires when it offers to install): the title keeps one line.
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.evaluate(() => {
          const event = new Event('beforeinstallprompt', { cancelable: true }) as Event & Record<string, unknown>;
          event.prompt = async () => undefined;
          event.userChoice = Promise.resolve({ outcome: 'dismissed' });
          window.dispatchEvent(event);
        });
        await expect(page.getByRole('button', { name: 'Install' })).toBeVisible();
        const title = page.locator('.app-header h1');
        const lines = await title.evaluate((h) => Math.round(h.getBoundingClientRect().height / Number.parseFloat(getComputedStyle(h).lineHeight || '0') || 0));
        expect(lines).toBeLessThanOrEqual(1);
        const header = (await page.locator('.app-header').boundingBox())!;
        for (const b of await page.locator('.app-header > *').all()) {
          const box = (await b.boundingBox())!;
          expect(box.x + box.width).toBeLessThanOrEqual(header.x + header.width + 0.5);
        }
      });
    });
  });
}
