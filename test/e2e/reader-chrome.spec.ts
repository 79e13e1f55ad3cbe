// The reader's chrome and the share dialog at 1280 px and on a 412 × 915 phone: no stray chevron
// on the ⋯ button, the share dialog's boxes all one size and its heading not the session's words,
// and no branch to export or share for a session with no entries.
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { dropFiles, fixture, IMPORTED, importSummary, openEmptyLibrary } from './app-helpers.ts';
import { showViewOptions, SIZES } from './sizes.ts';

test.describe.configure({ timeout: 180_000 });

const idOf = (path: string) => JSON.parse(fixture(path).toString('utf8').split('\n')[0]).id as string;
const EMPTY = 'real/pi-messenger-crew-planner-header-only.jsonl';
/** A real subagent run whose first message is "Task: " (its title ends with a colon). */
const TASK = 'real/frinfo702-dotfiles-subagent-run0.jsonl';

async function importAll(page: Page, paths: string[]) {
  await openEmptyLibrary(page);
  await dropFiles(
    page,
    paths.map((p) => ({ name: p.split('/').pop()!, text: fixture(p).toString('utf8') })),
  );
  await expect(importSummary(page)).toContainText(`Added: ${paths.length}`, IMPORTED);
}

/** Opens the share dialog from the reader's ⋯ menu (on a phone the bar has no share button). */
async function shareFromMenu(page: Page) {
  await page.getByLabel('More actions', { exact: true }).click();
  await page.getByRole('button', { name: 'Share a copy…' }).click();
}

/** The names of a menu's buttons. */
const names = (group: import('@playwright/test').Locator) => group.getByRole('button').evaluateAll((els) => els.map((el) => el.textContent?.trim() ?? ''));

for (const size of SIZES) {
  test.describe(size.name, () => {
    test.use(size.use);

    // One library for every step: each starts from a fresh load of the page it needs.
    test('the reader’s chrome, its ⋯ menu and the share dialog', async ({ page }) => {
      const LONG = 'real/castai-kimchi-dev-session.jsonl';
      await importAll(page, [TASK, EMPTY, LONG]);
      /** Loads the library afresh (no menu or dialog left open). */
      const library = async () => {
        await page.goto('/');
        await expect(page.locator(`.session-card[data-session-id="${idOf(TASK)}"]`)).toBeVisible();
      };

      await test.step('the reader’s ⋯ menu button draws no disclosure chevron', async () => {
        await library();
        await page.goto(`/#/s/${idOf(TASK)}`);
        const summary = page.locator('.rd-head details.menu > summary');
        await expect(summary).toBeVisible();
        const before = await summary.evaluate((el) => getComputedStyle(el, '::before').content);
        expect(before).toBe('none');
        // One glyph on one line: the button is no taller than the bar's other buttons.
        const box = (await summary.boundingBox())!;
        const find = (await page.getByRole('button', { name: 'Find in session' }).boundingBox())!;
        expect(box.height).toBeLessThanOrEqual(find.height + 1);
      });

      await test.step('share dialog: every box one size, a heading of its own, the session named below it', async () => {
        await library();
        await page.goto(`/#/s/${idOf(TASK)}`);
        await shareFromMenu(page);
        const dialog = page.getByRole('dialog');
        const boxes = dialog.locator('input[type="checkbox"]');
        await expect(boxes.first()).toBeVisible();
        const sizes = await boxes.evaluateAll((els) => els.map((el) => Math.round(el.getBoundingClientRect().width * 10) / 10));
        expect(sizes.length).toBeGreaterThan(4);
        expect(new Set(sizes).size, `box widths ${sizes.join(', ')}`).toBe(1);
        await expect(dialog.getByRole('heading', { level: 2 })).toHaveText('Share a copy');
        await expect(dialog).toHaveAccessibleDescription('Task:');
      });

      await test.step('a session with no entries offers no branch to export or share', async () => {
        await library();
        const id = idOf(EMPTY);
        await page.locator(`.session-card[data-session-id="${id}"] details.menu > summary`).click();
        await expect(page.getByRole('group', { name: 'Session actions' })).toBeVisible();
        await expect(page.getByRole('button', { name: 'Export active branch' })).toHaveCount(0);
        await page.keyboard.press('Escape');
        await page.goto(`/#/s/${id}`);
        await expect(page.getByText('This branch has no entries.')).toBeVisible();
        if (size.phone) {
          await showViewOptions(page);
          await page.getByRole('button', { name: /^Branches/ }).click();
        }
        await expect(page.getByRole('navigation', { name: 'Branches' })).toBeVisible();
        await expect(page.getByRole('button', { name: 'Export this branch' })).toHaveCount(0);
        if (size.phone) await page.getByRole('button', { name: /^Branches/ }).click();
        await shareFromMenu(page);
        const dialog = page.getByRole('dialog');
        await expect(dialog.getByRole('heading', { level: 2 })).toBeVisible();
        await expect(dialog.getByRole('radio', { name: /branch/ })).toHaveCount(0);
      });

      await test.step('the reader’s ⋯ menu has the card menu’s actions: the original file, a copy to share, the branch, the resume command', async () => {
        await library();
        const id = idOf(TASK);
        await page.locator(`.session-card[data-session-id="${id}"] details.menu > summary`).click();
        const onCard = (await names(page.getByRole('group', { name: 'Session actions' }))).filter((n) => n !== 'Rename' && n !== 'Delete');
        expect(onCard).toEqual(expect.arrayContaining(['Download', 'Share a copy…', 'Copy pi resume command']));
        await page.keyboard.press('Escape');
        await page.goto(`/#/s/${id}`);
        await page.getByLabel('More actions', { exact: true }).click();
        const menu = page.locator('.rd-head').getByRole('group', { name: 'Session actions' });
        await expect(menu.getByRole('button', { name: 'Download', exact: true })).toBeVisible();
        const inReader = await names(menu);
        // The same actions, the branch named as the one on screen.
        expect(inReader).toEqual(
          onCard.map((n) => n.replace('Export active branch', 'Export the branch on screen').replace(': active branch', ': branch on screen')),
        );
        const [download] = await Promise.all([page.waitForEvent('download'), menu.getByRole('button', { name: 'Download', exact: true }).click()]);
        expect(await readFile((await download.path())!, 'utf8')).toBe(fixture(TASK).toString('utf8'));
      });

      await test.step('the reader’s chrome leaves the screen to the transcript: on a phone one bar, the transcript within the top fifth, the title readable', async () => {
        await library();
        await page.goto(`/#/s/${idOf(LONG)}`);
        const title = page.getByRole('heading', { level: 1 });
        await expect(title).toHaveText(/^we're in the directoy of our bespoke coding harness/);
        await expect(page.locator('.rd-row').first()).toBeVisible();
        const viewport = page.viewportSize()!;
        const feed = (await page.getByRole('feed').boundingBox())!;
        const shown = await title.evaluate((el) => ({
          width: el.getBoundingClientRect().width,
          lines: Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight)),
        }));
        if (size.phone) {
          expect(feed.y, 'the transcript starts within the top fifth').toBeLessThanOrEqual(viewport.height / 5);
          // Half the width or more, up to two lines: about 40 characters of the title.
          expect(shown.width).toBeGreaterThanOrEqual(viewport.width / 2);
          expect(shown.lines).toBe(2);
          await expect(page.getByRole('tab', { name: 'Stats' })).toBeHidden();
          await page.getByRole('button', { name: 'View options' }).click();
        }
        // The rest, one tap away on a phone and in sight on a laptop.
        await page.getByRole('tab', { name: 'Stats' }).click();
        await expect(page.getByRole('region', { name: 'Stats' })).toBeVisible();
        await expect(size.phone ? page.getByRole('button', { name: /Branches/ }) : page.getByRole('navigation', { name: 'Branches' })).toBeVisible();
      });
    });
  });
}
