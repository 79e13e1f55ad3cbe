import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { unzipSync } from 'fflate';
import { card, dropFiles, fixture, importSummary, IMPORTED, makeSession, openEmptyLibrary, SAMPLE } from './app-helpers.ts';

const REAL = 'real/pi-mono-large-session.jsonl';

async function importSample(page: Page): Promise<void> {
  await openEmptyLibrary(page);
  await dropFiles(page, [{ name: 'welcome.jsonl', text: fixture(SAMPLE.path).toString('utf8') }]);
  await expect(importSummary(page)).toHaveText('Added: 1', IMPORTED);
  await page.getByRole('region', { name: 'Import' }).getByRole('button', { name: 'Close' }).click();
}

async function openMenu(page: Page, title: string) {
  await card(page, title).getByLabel(`Actions for ${title}`).click();
  return card(page, title).getByRole('group', { name: 'Session actions' });
}

// The checks of a library holding the sample, as steps of one test (one context, one import).
test('a library row shows title, date, model, size, entries and cost, grouped by project; delete and undo; rename, search across all sessions, and the copy-resume commands', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await importSample(page);

  await test.step('a library row shows title, date, model, size, entries and cost, grouped by project', async () => {
    const row = card(page, SAMPLE.title);
    await expect(row.locator('.facts')).toContainText('claude-sonnet-4-5');
    await expect(row.locator('.facts')).toContainText(/\d+ entries/);
    await expect(row.locator('.facts')).toContainText(/\d+(\.\d)? KB/);
    await expect(page.getByRole('region', { name: 'Project tide-tables' })).toBeVisible();
    await expect(row.locator('.facts')).toContainText('2 branches');

    // The active branch alone: a linear session, shorter than the whole tree, every line JSON.
    const menu = await openMenu(page, SAMPLE.title);
    const download = page.waitForEvent('download');
    await menu.getByRole('button', { name: 'Export active branch' }).click();
    const branch = await download;
    expect(branch.suggestedFilename()).toMatch(/\.jsonl$/);
    const lines = readFileSync(await branch.path(), 'utf8')
      .trimEnd()
      .split('\n');
    const whole = fixture(SAMPLE.path).toString('utf8').trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(2);
    expect(lines.length).toBeLessThan(whole.length);
    expect(JSON.parse(lines[0]).type).toBe('session');
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
  });

  await test.step('delete, then undo, brings the session back (and it stays after a reload)', async () => {
    // A fresh load: the menu the step before opened is not left open.
    await page.reload();
    const menu = await openMenu(page, SAMPLE.title);
    await menu.getByRole('button', { name: 'Delete' }).click();
    await expect(card(page, SAMPLE.title)).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Your library is empty' })).toBeVisible();
    await page.locator('.toast').getByRole('button', { name: 'Undo' }).click();
    await expect(card(page, SAMPLE.title)).toBeVisible();
    await page.reload();
    await expect(card(page, SAMPLE.title)).toBeVisible();
  });

  await test.step('rename, search across all sessions, and the copy-resume commands', async () => {
    await dropFiles(page, [{ name: 'other.jsonl', text: makeSession('44444444-0000-4000-8000-000000000001', 'Unrelated work') }]);
    await expect(importSummary(page)).toHaveText('Added: 1', IMPORTED);

    const menu = await openMenu(page, SAMPLE.title);
    await menu.getByRole('button', { name: 'Rename' }).click();
    await page.getByLabel('New title').fill('Tide parser, renamed');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(card(page, 'Tide parser, renamed')).toBeVisible();

    // Full text: a word that is only inside the sample's messages, not in any title.
    const word = fixture(SAMPLE.path).toString('utf8').includes('tide') ? 'tide' : 'the';
    await page.getByLabel('Search sessions').fill(word);
    await expect(page.locator('.search-session')).toHaveCount(1);
    await expect(page.locator('.search-session .session-title')).toHaveText('Tide parser, renamed');
    await page.getByLabel('Search sessions').fill('');
    await expect(page.locator('.session-card')).toHaveCount(2);

    const again = await openMenu(page, 'Unrelated work');
    await again.getByRole('button', { name: 'Copy omp resume command' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      // A bare pi/omp-alike file (nothing says which agent wrote it) offers both; omp's own form.
      "cd '/home/test/project' && omp --allow-home --resume 44444444-0000-4000-8000-000000000001",
    );
    const pi = await openMenu(page, 'Unrelated work');
    await pi.getByRole('button', { name: 'Copy pi resume command' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/^pi --session \S+\.jsonl'?$/);
  });
});

test('export gives back the exact bytes that were imported (download)', async ({ page }) => {
  const bytes = fixture(REAL);
  await openEmptyLibrary(page);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Import files' }).click();
  await (await chooser).setFiles([{ name: 'large.jsonl', mimeType: 'application/x-ndjson', buffer: bytes }]);
  await expect(importSummary(page)).toHaveText('Added: 1', IMPORTED);
  await page.getByRole('region', { name: 'Import' }).getByRole('button', { name: 'Close' }).click();
  const row = page.locator('.session-card').first();
  const title = (await row.locator('.session-title').textContent())!;
  const menu = await openMenu(page, title);
  const download = page.waitForEvent('download');
  await menu.getByRole('button', { name: 'Download' }).click();
  const file = await (await download).path();
  expect(Buffer.compare(readFileSync(file), bytes)).toBe(0);
});

test('a selection exports as one zip bundle holding each session byte for byte', async ({ page }) => {
  await openEmptyLibrary(page);
  const a = makeSession('33333333-0000-4000-8000-000000000001', 'Bundle one');
  const b = makeSession('33333333-0000-4000-8000-000000000002', 'Bundle two');
  await dropFiles(page, [
    { name: 'a.jsonl', text: a },
    { name: 'b.jsonl', text: b },
    { name: 'c.jsonl', text: makeSession('33333333-0000-4000-8000-000000000003', 'Not chosen') },
  ]);
  await expect(importSummary(page)).toHaveText('Added: 3', IMPORTED);
  await page.getByLabel('Select Bundle one').check();
  await page.getByLabel('Select Bundle two').check();
  await expect(page.getByRole('region', { name: 'Selection' })).toContainText('2 sessions selected');
  const download = page.waitForEvent('download');
  await page.getByRole('region', { name: 'Selection' }).getByRole('button', { name: 'Export bundle' }).click();
  const zip = unzipSync(readFileSync(await (await download).path()));
  const jsonl = Object.entries(zip)
    .filter(([name]) => name.endsWith('.jsonl'))
    .map(([, data]) => Buffer.from(data).toString('utf8'));
  expect(jsonl.sort()).toEqual([a, b].sort());
});

test('two tabs see each other’s imports', async ({ page, context }) => {
  await openEmptyLibrary(page);
  const other = await context.newPage();
  await openEmptyLibrary(other);
  await dropFiles(page, [{ name: 'welcome.jsonl', text: fixture(SAMPLE.path).toString('utf8') }]);
  await expect(importSummary(page)).toHaveText('Added: 1', IMPORTED);
  await expect(card(other, SAMPLE.title)).toBeVisible();
  await dropFiles(other, [{ name: 'x.jsonl', text: makeSession('55555555-0000-4000-8000-000000000001', 'From the other tab') }]);
  await expect(card(page, 'From the other tab')).toBeVisible();
});
