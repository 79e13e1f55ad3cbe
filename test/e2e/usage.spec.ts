// The Usage screen in Chromium: days are the user's local days (sessions near midnight UTC seen
// from Kolkata and Los Angeles), a day opens its sessions, the CSV export's content, the phone
// layout in both themes with axe, hostile titles staying text, and the chunk, report and screen
// made ready at idle after boot.
import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { dropFiles, importSummary, IMPORTED, openEmptyLibrary, waitForServiceWorker } from './app-helpers.ts';
import { SIZES } from './sizes.ts';
import { shots, session, HOSTILE, A, B, openUsage, dayLink } from './usage-helpers.ts';

// Tests outside the time-zone blocks see UTC days.
test.use({ timezoneId: 'UTC' });

for (const [zone, days] of [
  ['Asia/Kolkata', { a: '2026-11-21', b: '2026-11-22', empty: '2026-11-20' }],
  ['America/Los_Angeles', { a: '2026-11-20', b: '2026-11-21', empty: '2026-11-22' }],
] as const) {
  test.describe(zone, () => {
    test.use({ timezoneId: zone });

    test(`the CSV export's rows and the heatmap's days are ${zone} days; a day opens its sessions`, async ({ page }) => {
      test.setTimeout(90_000);
      await openUsage(page);

      await test.step('CSV export', async () => {
        const download = page.waitForEvent('download');
        await page.getByRole('button', { name: 'Export CSV' }).click();
        const file = await download;
        expect(file.suggestedFilename()).toBe('rho-usage_all-branches_2026-10-27_2026-11-25.csv');
        const csv = await readFile((await file.path())!, 'utf8');
        const lines = csv.trimEnd().split('\r\n');
        expect(lines).toHaveLength(3);
        expect(lines[0].split(',').slice(0, 3)).toEqual(['day', 'scope', 'session_id']);
        expect(lines[1]).toBe(
          `${days.a},all branches,aaaa0000-0000-4000-8000-000000000001,Midnight session,/home/u/alpha,pi,acme/model-1,aaaa0000-0000-4000-8000-000000000001,2,1100,220,3000,0,4320,1.5,2,1,1`,
        );
        expect(lines[2]).toBe(
          `${days.b},all branches,bbbb0000-0000-4000-8000-000000000002,"<img src=x onerror=""window.__pwned=1""><script>window.__pwned=2</script>",/home/u/beta,pi,acme/model-2,bbbb0000-0000-4000-8000-000000000002,1,500,50,0,0,550,,0,0,0`,
        );
      });

      await test.step('heatmap days; a day opens its sessions', async () => {
        await expect(dayLink(page, days.a)).toHaveAttribute('aria-label', /\$1\.50, 4\.3K tokens, 1 session$/);
        await expect(dayLink(page, days.b)).toHaveAttribute('aria-label', /no price recorded, 550 tokens, 1 session$/);
        await expect(dayLink(page, days.empty)).toHaveCount(0);
        await expect(page.locator('svg.heatmap a')).toHaveCount(2);
        // Pointed at (or focused), a day's figures show in the line under the heatmap.
        await dayLink(page, days.b).hover();
        await expect(page.locator('.hm-hover')).toHaveText(/no price recorded, 550 tokens, 1 session$/);

        await dayLink(page, days.a).click();
        await expect(page).toHaveURL(new RegExp(`#/usage\\?day=${days.a}$`));
        const panel = page.getByRole('region', { name: /^Sessions on / });
        await expect(panel.locator('li a')).toHaveText(['Midnight session']);
        await expect(panel).toContainText('$1.50');

        await page.goto(`/#/usage?day=${days.b}`);
        await expect(page.getByRole('region', { name: /^Sessions on / }).locator('li a')).toHaveText([HOSTILE]);

        // The table fallback lists the same two days.
        await page.getByText('Days as a table').click();
        await expect(page.locator('.usage-days tbody tr')).toHaveCount(2);
      });
    });
  });
}

test('made ready at idle; totals, scope words, ranges and "no price recorded" cost; hostile titles stay text; the phone layout in both themes; kept under the library once shown', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  const totals = page.getByRole('region', { name: 'Totals' });

  await test.step('made ready at idle: after a reload the chunk is fetched, the report made and the screen drawn hidden before Usage is asked for; the open only shows it', async () => {
    await page.clock.setFixedTime(new Date('2026-11-25T12:00:00.000Z'));
    await openEmptyLibrary(page);
    await dropFiles(page, [A, B]);
    await expect(importSummary(page)).toContainText('Added: 2', IMPORTED);
    const chunks: string[] = [];
    page.on('request', (r) => {
      if (/\/assets\/UsageScreen-[\w-]+\.js$/.test(r.url())) chunks.push(r.url());
    });
    await page.reload();
    // On the library, nothing asked for Usage: the idle work fetched its chunk, computed its report
    // from the two records (usage-host.tsx marks it) and drew the screen, hidden.
    await expect(page.locator('html[data-usage-prepared="2"]')).toBeAttached();
    expect(chunks).toHaveLength(1);
    const ahead = page.locator('.usage-host main[data-usage-ready="2"]');
    await expect(ahead).toBeAttached();
    await expect(ahead).toBeHidden();
    await expect(page.getByRole('main')).toHaveCount(1);
    // The open shows the screen drawn ahead, by the render that follows the route change, before the
    // next task (a chunk still to fetch would take several), and changes nothing inside it.
    const open = await page.evaluate(
      () =>
        new Promise<{ same: boolean; changes: number; shown: boolean }>((resolve) => {
          const before = document.querySelector('main.usage')!;
          const observer = new MutationObserver(() => undefined);
          observer.observe(before, { subtree: true, childList: true, attributes: true, characterData: true });
          addEventListener(
            'hashchange',
            () =>
              setTimeout(() => {
                const after = document.querySelector('main[data-usage-ready="2"]:not([hidden] *)');
                resolve({ same: after === before, changes: observer.takeRecords().length, shown: after?.checkVisibility() ?? false });
              }),
            { once: true },
          );
          location.hash = '#/usage';
        }),
    );
    expect(open).toEqual({ same: true, changes: 0, shown: true });
    expect(chunks).toHaveLength(1);
    await expect(totals.locator('.usage-figure', { hasText: 'Cost' }).locator('dd')).toHaveText('$1.50 (recorded for 2 of 3 turns)');
  });

  await test.step('totals, scope words and "no price recorded" cost; hostile titles stay text', async () => {
    await expect(totals).toContainText('All branches · ');
    await expect(totals.locator('.usage-figure', { hasText: 'Cost' }).locator('dd')).toHaveText('$1.50 (recorded for 2 of 3 turns)');
    await expect(totals.locator('.usage-figure', { hasText: 'Tokens' }).first().locator('dd')).toHaveText(/\(4,870\)$/);
    await expect(totals.locator('.usage-figure', { hasText: 'Cache-hit' }).locator('dd')).toHaveText('65%');
    await expect(totals.locator('.usage-figure', { hasText: 'Tool errors' }).locator('dd')).toHaveText('1 of 1 (100.0%)');
    const models = page.getByRole('region', { name: 'Per model' });
    await expect(models.locator('li', { hasText: 'acme/model-2' })).toContainText('no price recorded');
    const top = page.getByRole('region', { name: 'Sessions that cost most' });
    await expect(top.getByRole('link')).toHaveText(['Midnight session', HOSTILE]);
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(dialogs).toEqual([]);
    await expect(page.locator('main.usage img')).toHaveCount(0);
    await expect(page.locator('main.usage script')).toHaveCount(0);
  });

  await test.step('a range without those days: nothing counted, and it says so', async () => {
    await page.getByLabel('Range').selectOption('7');
    await expect(totals).toContainText('Nov 19, 2026 – Nov 25, 2026');
    await page.getByLabel('Range').selectOption('custom');
    await page.getByLabel('From', { exact: true }).fill('2026-11-22');
    await page.getByLabel('To', { exact: true }).fill('2026-11-30');
    await expect(totals.locator('.usage-figure', { hasText: 'Sessions' }).locator('dd')).toHaveText('0 · 0');
    await page.getByLabel('Range').selectOption('30');
    await expect(totals.locator('.usage-figure', { hasText: 'Cost' }).locator('dd')).toHaveText('$1.50 (recorded for 2 of 3 turns)');
  });

  for (const theme of ['light', 'dark'] as const) {
    await test.step(`phone, ${theme} theme: no sideways scroll, axe finds nothing serious`, async () => {
      await page.setViewportSize({ width: 360, height: 740 });
      await page.emulateMedia({ colorScheme: theme });
      await page.goto('/#/usage?day=2026-11-21');
      await page.reload();
      await expect(page.locator('main[data-usage-ready="2"]')).toBeVisible();
      await expect(page.getByRole('region', { name: /^Sessions on / })).toBeVisible();
      await page.getByText('Days as a table').click();
      await expect(page.locator('.usage-days tbody tr').first()).toBeVisible();
      const [scroll, width] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
      expect(scroll).toBeLessThanOrEqual(width);
      const { violations } = await new AxeBuilder({ page }).analyze();
      const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
      await page.screenshot({ path: `${shots}/usage-phone-${theme}.png`, fullPage: true });
    });
  }

  await test.step('kept under the library once shown: a session imported meanwhile counts when Usage opens again', async () => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/#/usage');
    await expect(totals.locator('.usage-figure', { hasText: 'Cost' }).locator('dd')).toHaveText('$1.50 (recorded for 2 of 3 turns)');
    await page.getByRole('link', { name: '← Library' }).click();
    await expect(page.locator('.usage-host')).toBeHidden();
    const C = session('cccc0000-0000-4000-8000-000000000003', 'Later session', '/home/u/gamma', [
      { at: '2026-11-22T09:00:00.000Z', input: 10, output: 5, cost: 0.25 },
    ]);
    await dropFiles(page, [C]);
    await expect(importSummary(page)).toContainText('Added: 1', IMPORTED);
    await page.getByRole('link', { name: 'Usage', exact: true }).click();
    await expect(page.locator('main[data-usage-ready="3"]')).toBeVisible();
    await expect(totals.locator('.usage-figure', { hasText: 'Cost' }).locator('dd')).toHaveText('$1.75 (recorded for 3 of 4 turns)');
    await expect(page.getByRole('region', { name: 'Sessions that cost most' }).getByRole('link')).toHaveText(['Midnight session', 'Later session', HOSTILE]);
    await expect(page.locator('svg.heatmap a[href="#/usage?day=2026-11-22"]')).toHaveCount(1);
  });
});

test.describe('offline', () => {
  // What is tested is the service worker's cache.
  test.use({ serviceWorkers: 'allow' });

  test('after one visit the Usage screen opens and reloads with no network', async ({ page, context }) => {
    test.setTimeout(90_000);
    await openUsage(page);
    await waitForServiceWorker(page);
    await context.setOffline(true);
    try {
      await page.goto('/#/usage?day=2026-11-21');
      await page.reload();
      await expect(page.locator('main[data-usage-ready="2"]')).toBeVisible();
      await expect(page.getByRole('region', { name: /^Sessions on / }).locator('li a')).toHaveText(['Midnight session', HOSTILE]);
    } finally {
      await context.setOffline(false);
    }
  });
});

for (const size of SIZES) {
  test.describe(size.name, () => {
    test.use(size.use);

    test('opens on a range that has usage and says which: sessions older than 30 days show under the last 90', async ({ page }) => {
      // A's and B's turns are on 20–21 Nov; the clock is 60 days later.
      await page.clock.setFixedTime(new Date('2027-01-19T12:00:00.000Z'));
      await openEmptyLibrary(page);
      await dropFiles(page, [A, B]);
      await expect(importSummary(page)).toContainText('Added: 2', IMPORTED);
      await page.getByRole('link', { name: 'Usage', exact: true }).click();
      await expect(page.getByLabel('Range')).toHaveValue('90');
      await expect(page.getByRole('note').filter({ hasText: 'Showing last 90 days' })).toBeVisible();
      const totals = page.getByRole('region', { name: 'Totals' });
      await expect(totals).toContainText('Oct 22, 2026 – Jan 19, 2027');
      await expect(totals.locator('.usage-figure', { hasText: 'Cost' }).locator('dd')).toHaveText('$1.50 (recorded for 2 of 3 turns)');
      // A choice of the user's stays, and the note goes.
      await page.getByLabel('Range').selectOption('30');
      await expect(totals.locator('.usage-figure', { hasText: 'Sessions' }).locator('dd')).toHaveText('0 · 0');
      await expect(page.getByRole('note').filter({ hasText: 'Showing' })).toHaveCount(0);
    });
  });
}
