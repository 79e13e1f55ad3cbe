// A large library draws only the cards near the screen (LibraryList.tsx): the card drawn at a place
// is the session that belongs there, a scroll brings the right ones, and Tab walks every session
// down to the last one, drawing them as focus reaches them.
import { expect, type Page, test } from '@playwright/test';
import { dropFiles, importSummary, makeSession, openEmptyLibrary } from './app-helpers.ts';

const COUNT = 200;
const pad = (i: number) => String(i).padStart(3, '0');
const id = (i: number) => `88888888-0000-4000-8000-000000000${pad(i)}`;

async function library(page: Page) {
  await openEmptyLibrary(page);
  await dropFiles(
    page,
    Array.from({ length: COUNT }, (_, i) => ({ name: `v${i}.jsonl`, text: makeSession(id(i), `Session ${pad(i)}`) })),
  );
  await expect(importSummary(page)).toHaveText(`Added: ${COUNT}`, { timeout: 60_000 });
  await page.getByRole('region', { name: 'Import' }).getByRole('button', { name: 'Close' }).click();
  await sortByTitle(page);
}

/** Sorts by title: row 0 is the project's heading, row i the session "Session i-1". */
async function sortByTitle(page: Page) {
  await page.getByRole('combobox', { name: 'Sort by' }).selectOption('title');
  await expect(page.locator('.library-row').first().locator('.project-title')).toContainText(`${COUNT} sessions`);
}

/** The title of the card at the middle of the screen, and its row. */
const atMiddle = (page: Page) =>
  page.evaluate(() => {
    const el = document.elementFromPoint(innerWidth / 2, innerHeight / 2)?.closest('.library-row');
    return el ? { row: Number((el as HTMLElement).dataset.index), title: el.querySelector('.session-title')?.textContent ?? '' } : null;
  });

// The checks of one library of 200 sessions, as steps of one test (one import).
test('only cards near the screen are drawn and a scroll draws the right ones; Tab walks from the first session to the last, drawing cards as focus reaches them, also when it is faster than scroll events', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await library(page);
  await test.step('only cards near the screen are drawn, and a scroll draws the right ones', () => scrollDrawsTheRightCards(page));
  await test.step('Tab walks from the first session to the last, drawing cards as focus reaches them', () => tabWalksToTheLast(page));
  await test.step('Tab faster than scroll events (a busy phone): focus stays in the list, and the cards it reaches are drawn', async () => {
    // A fresh load of the same library, at its top (a reload keeps the scroll position): the page
    // will hear no scroll event from here on.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.reload();
    await sortByTitle(page);
    await expect(page.locator('.session-card').first()).toContainText('Session 000');
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await tabOutrunsScrollEvents(page);
  });
  await test.step('sessions arriving at once are drawn a few at a time, those on screen before those below it', () => arrivalsOnScreenFirst(page));
});

async function scrollDrawsTheRightCards(page: Page) {
  await expect(page.locator('.session-card').first()).toContainText('Session 000');
  const drawn = await page.locator('.session-card').count();
  expect(drawn).toBeGreaterThan(3);
  expect(drawn).toBeLessThan(COUNT / 2);
  // The page is as tall as every card (the scroll bar tells the truth about the list).
  expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeGreaterThan(COUNT * 60);

  for (const share of [0.5, 0.25, 0.8]) {
    await page.evaluate((share) => window.scrollTo(0, document.documentElement.scrollHeight * share), share);
    await expect
      .poll(async () => {
        const m = await atMiddle(page);
        return m && m.row > 0 && m.title === `Session ${pad(m.row - 1)}` ? m.row : -1;
      })
      .toBeGreaterThan(COUNT * share - 40);
    const m = (await atMiddle(page))!;
    expect(m.row).toBeLessThan(COUNT * share + 40);
  }
  // The end: the last session is drawn, and nothing after it.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(page.locator('.session-card').last()).toContainText(`Session ${pad(COUNT - 1)}`);
  await expect(page.locator('.session-card').last()).toBeInViewport();
}

async function tabWalksToTheLast(page: Page) {
  await page.locator('.session-card').first().getByRole('checkbox').focus();
  const last = `Session ${pad(COUNT - 1)}`;
  const focused = () =>
    page.evaluate(() => {
      const el = document.activeElement;
      const row = Number((el?.closest('.library-row') as HTMLElement | null)?.dataset.index ?? -1);
      return { row, title: el?.classList.contains('session-title') ? (el.textContent ?? '') : '' };
    });
  let seen = '';
  let steps = 0;
  let near = false;
  // Three stops a card (tick box, title, menu): a few more presses than that must reach the last title.
  // (Where focus is, is read every few presses, then at each press near the end.)
  while (seen !== last && steps < COUNT * 3 + 20) {
    await page.keyboard.press('Tab');
    steps++;
    if (!near && steps % 15) continue;
    const f = await focused();
    expect(f.row, `focus stays in the list (press ${steps})`).toBeGreaterThan(0);
    near ||= f.row >= COUNT - 6;
    seen = f.title;
  }
  expect(seen).toBe(last);
  await expect(page.locator('.session-card').filter({ hasText: last }).getByRole('link')).toBeFocused();
  await expect(page.locator('.session-card').filter({ hasText: last })).toBeInViewport();
  // Ticking it with the keyboard selects it.
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Space');
  await expect(page.getByRole('region', { name: 'Selection' })).toContainText('1 session selected');
}

async function tabOutrunsScrollEvents(page: Page) {
  // The page hears no scroll event from here on, as when key presses come faster than frames: only
  // focus itself can keep the cards ahead of it drawn. (A capturing listener on the target runs first.)
  await page.evaluate(() => addEventListener('scroll', (e) => e.stopImmediatePropagation(), { capture: true }));
  await page.locator('.session-card').first().getByRole('checkbox').focus();
  const focusedRow = () => page.evaluate(() => Number((document.activeElement?.closest('.library-row') as HTMLElement | null)?.dataset.index ?? -1));
  // Three stops a card: 40 cards, well past what the scroll position drew (the screen and 800 px more).
  for (let press = 1; press <= 120; press++) {
    await page.keyboard.press('Tab');
    if (press % 10 === 0) expect(await focusedRow(), `focus stays in the list (press ${press})`).toBeGreaterThan(0);
  }
  const row = await focusedRow();
  expect(row).toBeGreaterThanOrEqual(40);
  await expect(page.locator('.library-row:focus-within .session-title')).toHaveText(`Session ${pad(row - 1)}`);
}

const ARRIVALS = 40;
/** New cards a drawing adds at most (LibraryList.tsx's CARDS_PER_FRAME). */
const FEW = 4;

async function arrivalsOnScreenFirst(page: Page) {
  // A fresh load (the scroll events are heard again), sorted by title, scrolled down a little:
  // sessions titled "Arrival …" then land in rows 1 to 40, above the screen, on it and below it.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.reload();
  await sortByTitle(page);
  await page.evaluate(() => window.scrollTo(0, 1500));
  await expect.poll(() => atMiddle(page).then((m) => m?.title ?? '')).toMatch(/^Session 01/);
  // Each drawing of the list (one batch of mutation records): the arrivals' cards it added, and
  // whether it drew one away from the screen while an arrived row on the screen was still blank.
  await page.evaluate(() => {
    const w = window as unknown as { drawings: string[][]; skipped: string[] };
    w.drawings = [];
    w.skipped = [];
    const seen = new Set<string>();
    const margin = 100;
    const onScreen = (el: Element) => {
      const r = el.getBoundingClientRect();
      return r.bottom > margin && r.top < innerHeight - margin;
    };
    const away = (el: Element) => {
      const r = el.getBoundingClientRect();
      return r.bottom < -margin || r.top > innerHeight + margin;
    };
    new MutationObserver((records) => {
      const added: Element[] = [];
      for (const r of records)
        for (const n of r.addedNodes)
          for (const a of (n as Element).querySelectorAll?.('.session-title') ?? []) {
            const title = a.textContent ?? '';
            if (title.startsWith('Arrival') && !seen.has(title) && a.isConnected) {
              seen.add(title);
              added.push(a);
            }
          }
      if (!added.length) return;
      w.drawings.push(added.map((a) => a.textContent ?? ''));
      const blankOnScreen = [...document.querySelectorAll('.library-row:not(.head):empty')].some(onScreen);
      for (const a of added) if (blankOnScreen && away(a)) w.skipped.push(a.textContent ?? '');
    }).observe(document.body, { childList: true, subtree: true });
  });
  // Another tab imports them: they reach this tab's list as sessions from elsewhere do.
  const other = await page.context().newPage();
  await other.goto('/');
  await dropFiles(
    other,
    Array.from({ length: ARRIVALS }, (_, i) => ({ name: `a${i}.jsonl`, text: makeSession(id(COUNT + i), `Arrival ${pad(i)}`) })),
  );
  await expect(importSummary(other)).toHaveText(`Added: ${ARRIVALS}`, { timeout: 60_000 });
  await other.close();
  // The list holds them all (its heading and a row a session).
  await expect(page.locator('.library-rows')).toHaveAttribute('data-rows', String(COUNT + ARRIVALS + 1));
  // Every row drawn is a card again (none held blank), arrivals on the screen.
  await expect(page.locator('.library-row:not(.head):empty')).toHaveCount(0);
  await expect.poll(() => atMiddle(page).then((m) => m?.title ?? '')).toMatch(/^Arrival/);
  const { drawings, skipped } = await page.evaluate(() => {
    const { drawings, skipped } = window as unknown as { drawings: string[][]; skipped: string[] };
    return { drawings, skipped };
  });
  expect(drawings.flat().length).toBeGreaterThan(FEW);
  for (const d of drawings) expect(d.length, `cards drawn at once: ${d.join(', ')}`).toBeLessThanOrEqual(FEW);
  expect(skipped, 'arrivals drawn away from the screen while one on it was blank').toEqual([]);
}
