import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { card, dropFiles, fixture, importSummary, IMPORTED, makeSession, openEmptyLibrary, root, SAMPLE } from './app-helpers.ts';

const shots = resolve(root, 'reports/screenshots');
mkdirSync(shots, { recursive: true });

/** Nothing sticks out sideways (a phone would scroll the whole page horizontally). */
async function expectNoSidewaysScroll(page: Page) {
  const [scroll, width] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  expect(scroll).toBeLessThanOrEqual(width);
}

/** Every visible button and select is at least 44 px tall (tap targets). */
async function expectTapTargets(page: Page) {
  const small = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('button, select, summary, input[type="search"]')]
      .filter((el) => el.offsetParent !== null && !el.classList.contains('link'))
      .filter((el) => el.getBoundingClientRect().height < 44)
      .map((el) => el.textContent || el.getAttribute('aria-label')),
  );
  expect(small).toEqual([]);
}

/** axe finds nothing serious (contrast, names, roles) on what is shown. */
async function expectNoSeriousAxeViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

for (const [label, viewport] of [
  ['phone', { width: 360, height: 740 }],
  ['laptop', { width: 1280, height: 800 }],
] as const) {
  test(`${label}: empty state, library, menu, report and settings fit the screen`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(viewport);
    await openEmptyLibrary(page);
    await expectNoSidewaysScroll(page);
    await expectTapTargets(page);
    await page.screenshot({ path: `${shots}/${label}-empty.png`, fullPage: true });

    await dropFiles(page, [
      { name: 'welcome.jsonl', text: fixture(SAMPLE.path).toString('utf8') },
      { name: 'large.jsonl', text: fixture('real/pi-mono-large-session.jsonl').toString('utf8') },
      {
        name: 'other.jsonl',
        text: makeSession(
          '77777777-0000-4000-8000-000000000001',
          'A much longer title for a session that wraps on a phone screen',
          '/home/test/another-project-with-a-long-name',
        ),
      },
      { name: 'broken.jsonl', text: 'not json\n' },
    ]);
    await expect(importSummary(page)).toContainText('Added: 3', IMPORTED);
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `${shots}/${label}-report.png`, fullPage: true });
    await expectNoSeriousAxeViolations(page);

    await page.getByRole('region', { name: 'Import' }).getByRole('button', { name: 'Close' }).click();
    await card(page, SAMPLE.title).getByLabel(`Actions for ${SAMPLE.title}`).click();
    await page.screenshot({ path: `${shots}/${label}-menu.png` });
    await expectTapTargets(page);
    await page.keyboard.press('Escape');

    await page.getByLabel(`Select ${SAMPLE.title}`).check();
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByLabel('Dark').check();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `${shots}/${label}-settings-dark.png`, fullPage: true });

    // A session opens in the reader (its own route); its back button returns to the library.
    await page.getByRole('link', { name: SAMPLE.title, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`#/s/${SAMPLE.id}`));
    await expect(page.getByRole('button', { name: 'Back to the library' })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `${shots}/${label}-reader.png` });
    await page.getByRole('button', { name: 'Back to the library' }).click();
    await expect(page).toHaveURL(/\/(#\/)?$/);
    await expect(card(page, SAMPLE.title)).toBeVisible();
  });
}
