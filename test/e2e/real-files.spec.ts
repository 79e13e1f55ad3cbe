// Every real session file of fixtures/real/ in the real app (Chromium, OPFS, the worker): dropped
// on the library, opened, and each view drawn — the transcript scrolled to its end, "What the
// model sees", Stats — with no console error, no page error and no problem badge (none of the 16
// deserves one; test/core/real-files.test.ts checks the same in Node), and omp's execution shapes
// (fixtures/omp/omp-executions.jsonl).
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { parse } from '../../src/core/index.ts';
import { openBranch, openSource, windowOf } from '../../src/core/view/index.ts';
import { dropFiles, fixture, importFixture, importSummary, IMPORTED, openEmptyLibrary, root } from './app-helpers.ts';

const fixtures = resolve(root, 'fixtures');
const names = readdirSync(resolve(fixtures, 'real'))
  .filter((n) => n.endsWith('.jsonl'))
  .sort();
/** The real files, and omp's execution shapes (an omp file: its first line is the title slot). */
const paths = [...names.map((n) => `real/${n}`), 'omp/omp-executions.jsonl'];
const bytesOf = (path: string) => new Uint8Array(readFileSync(resolve(fixtures, path)));

/** The entry id of the last row the transcript draws (a folded tool result draws nothing), or null for an empty branch. */
function lastDrawnEntry(path: string): string | null {
  const source = openSource(path, bytesOf(path));
  const branch = openBranch(source, source.index.leafId);
  const items = windowOf(source, branch, 'all', 0, branch.branch.length).filter((i) => i.kind !== 'folded');
  return items.length ? items[items.length - 1].entryId : null;
}

/** The id of the entry on a line of a real file (v1 files get theirs from the line number). */
function entryOnLine(path: string, line: number): string {
  const s = parse(bytesOf(path));
  return String(s.entries[s.entryLines.indexOf(line)].id);
}

/** Scrolls the view's virtual list to its end. */
async function scrollToEnd(page: Page): Promise<void> {
  await page.locator('.vl').evaluate((el) => {
    el.scrollTop = el.scrollHeight;
  });
}

test.describe.configure({ mode: 'parallel', timeout: 300_000 });
// Figures are grouped as the browser's locale does; this spec reads them in English.
test.use({ locale: 'en-US' });

test('all 16 real files are tested', () => {
  expect(names).toHaveLength(16);
});

/** Drops a fixture on the library (empty, or holding the files before it) and waits for its row; returns its session id. */
async function importPath(page: Page, path: string, first: boolean): Promise<string> {
  const id = String(parse(bytesOf(path)).header?.id);
  if (first) await openEmptyLibrary(page);
  else {
    // Back to the library as its link does (the page is not loaded again).
    await page.goto('/#/');
    await expect(page.locator('.session-card').first()).toBeVisible();
  }
  await dropFiles(page, [{ name: path.split('/').pop()!, text: fixture(path).toString('utf8') }]);
  await expect(page.locator(`a[href="#/s/${encodeURIComponent(id)}"]`).first()).toBeAttached({ timeout: 20_000 });
  return id;
}

/** Imports one file, opens it, and draws every view; collects console and page errors meanwhile. */
async function drawsEveryView(page: Page, name: string, first: boolean): Promise<void> {
  const errors: string[] = [];
  const onConsole = (m: { type(): string; text(): string }) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  };
  const onError = (e: Error) => errors.push(`page: ${e.message}`);
  page.on('console', onConsole);
  page.on('pageerror', onError);

  const id = await importPath(page, name, first);
  // The card whose own title links to the session (a fork's card links to its parent too).
  const card = page.locator('.session-card').filter({ has: page.locator(`a.session-title[href="#/s/${encodeURIComponent(id)}"]`) });
  await expect(card).toHaveCount(1);
  await expect(card.locator('.badge.warn')).toHaveCount(0);

  await page.goto(`/#/s/${encodeURIComponent(id)}`);
  // The reader's own title (a message's markdown may hold an h1 of its own).
  await expect(page.locator('h1.rd-title')).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Transcript' })).toBeVisible();
  const last = lastDrawnEntry(name);
  if (last) {
    await scrollToEnd(page);
    await expect(page.locator(`.rd-row[data-entry="${last}"]`)).toBeInViewport();
  }
  await expect(page.locator('.rd-problems')).toHaveCount(0);

  await page.getByRole('tab', { name: 'What the model sees' }).click();
  await expect(page.getByRole('heading', { name: 'What the model sees' })).toBeVisible();
  if (last) await scrollToEnd(page);

  await page.getByRole('tab', { name: 'Stats' }).click();
  await expect(page.locator('.rd-stats-table').first()).toBeVisible();

  await page.getByRole('tab', { name: 'Transcript' }).click();
  if (last) await expect(page.locator(`.rd-row[data-entry="${last}"]`)).toBeAttached();
  if (name === 'real/pi-mono-large-session.jsonl') {
    // Turn #6 (old pi: usage without totalTokens): 3 + 191 + 0 + 1,684, not "0 tokens".
    const turn = entryOnLine(name, 6);
    await page.goto(`/#/s/${encodeURIComponent(id)}?entry=${turn}`);
    await expect(page.locator(`.rd-row[data-entry="${turn}"] .rd-usage-box summary`)).toHaveText('Usage: 1,878 tokens · $0.0092');
  }
  page.off('console', onConsole);
  page.off('pageerror', onError);
  expect(errors, name).toEqual([]);
}

// The files in two halves, one test each (the two run side by side): each file is its own step, dropped
// on the library the files before it made, so a failure names the file; a browser context per file cost more than a file.
for (const half of [0, 1]) {
  const mine = paths.filter((_, i) => i % 2 === half);
  test(`${mine.length} real files (${half ? 'second' : 'first'} half): each imports, opens, and draws every view without an error or a problem badge`, async ({
    page,
  }) => {
    for (const [i, name] of mine.entries()) await test.step(name, () => drawsEveryView(page, name, i === 0));
  });
}

test('the session menu offers only the resume command of the agent that wrote the file', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  // A real pi file, from pi's sessions folder (SOURCES.md names where it was).
  const piId = await importFixture(page, 'real/frinfo702-dotfiles-branch-summary.jsonl');
  await dropFiles(page, [{ name: 'omp-shapes.jsonl', text: fixture('omp/omp-shapes.jsonl').toString('utf8') }]);
  await expect(importSummary(page)).toHaveText('Added: 1', IMPORTED);
  const menuOf = async (id: string) => {
    const row = page.locator('.session-card').filter({ has: page.locator(`a[href="#/s/${encodeURIComponent(id)}"]`) });
    await row.locator('details.menu > summary').click();
    return row.getByRole('group', { name: 'Session actions' });
  };

  const pi = await menuOf(piId);
  await expect(pi.getByRole('button', { name: /resume command/ })).toHaveText(['Copy pi resume command']);
  await pi.getByRole('button', { name: 'Copy pi resume command' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
    'pi --session ~/.pi/agent/sessions/--Users-ken702-ghq-github.com-frinfo702-research-v1--/2026-05-11T05-28-32-443Z_019e1582-29bb-70ea-bb56-268fc35c30f5.jsonl',
  );

  const omp = await menuOf('01a22bfc-8083-7289-ad69-dcce949addb1');
  await expect(omp.getByRole('button', { name: /resume command/ })).toHaveText(['Copy omp resume command']);
  await omp.getByRole('button', { name: 'Copy omp resume command' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
    "cd '/home/dev/omp' && omp --allow-home --resume 01a22bfc-8083-7289-ad69-dcce949addb1",
  );
});
