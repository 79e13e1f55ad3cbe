import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { card, dropFiles, fixture, importSummary, IMPORTED, makeSession, openEmptyLibrary, SAMPLE } from './app-helpers.ts';

test('the empty state explains the app and opens the sample through the library', async ({ page }) => {
  await openEmptyLibrary(page);
  await expect(page.getByText('coding agents')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Import folder' })).toBeVisible();
  await page.getByRole('button', { name: 'Open the sample session' }).click();
  await expect(page).toHaveURL(new RegExp(`#/s/${SAMPLE.id}$`), IMPORTED);
  await page.goto('/#/');
  await expect(card(page, SAMPLE.title)).toBeVisible();
});

test('dropping files on the window imports them and reports each outcome', async ({ page }) => {
  await openEmptyLibrary(page);
  await dropFiles(page, [
    { name: 'welcome.jsonl', text: fixture(SAMPLE.path).toString('utf8') },
    { name: 'notes.txt', text: 'just some notes\n' },
  ]);
  await expect(importSummary(page)).toContainText('Added: 1', IMPORTED);
  await expect(importSummary(page)).toContainText('Rejected: 1', IMPORTED);
  await expect(page.locator('.report-list .outcome-rejected')).toContainText('notes.txt');
  await expect(card(page, SAMPLE.title)).toBeVisible();
  // The same file again changes nothing.
  await dropFiles(page, [{ name: 'welcome.jsonl', text: fixture(SAMPLE.path).toString('utf8') }]);
  await expect(importSummary(page)).toHaveText('Unchanged: 1', IMPORTED);
});

test('dropping a folder walks it recursively, past readEntries batches of 100', async ({ page }) => {
  await openEmptyLibrary(page);
  const sessions = Array.from({ length: 105 }, (_, i) => {
    const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    return { name: `s${i}.jsonl`, text: makeSession(id, `Folder session ${i}`, i % 2 ? '/home/test/alpha' : '/home/test/beta') };
  });
  await page.evaluate((sessions) => {
    // Chromium's DataTransfer cannot be given directories from script, so the entries are built here
    // with the shape of the File and Directory Entries API; readEntries answers in batches of 100.
    const fileEntry = (dir: string, f: { name: string; text: string }) => ({
      isFile: true,
      isDirectory: false,
      name: f.name,
      fullPath: `${dir}/${f.name}`,
      file: (ok: (file: File) => void) => ok(new File([f.text], f.name)),
    });
    const dirEntry = (fullPath: string, children: unknown[]) => ({
      isFile: false,
      isDirectory: true,
      name: fullPath.split('/').pop(),
      fullPath,
      createReader() {
        let at = 0;
        return {
          readEntries(ok: (batch: unknown[]) => void) {
            const batch = children.slice(at, at + 100);
            at += 100;
            setTimeout(() => ok(batch));
          },
        };
      },
    });
    const inner = dirEntry(
      '/sessions/--home-test--',
      sessions.slice(5).map((f) => fileEntry('/sessions/--home-test--', f)),
    );
    const top = dirEntry('/sessions', [...sessions.slice(0, 5).map((f) => fileEntry('/sessions', f)), inner]);
    const data = { types: ['Files'], files: [], items: [{ kind: 'file', webkitGetAsEntry: () => top, getAsFile: () => null }], dropEffect: 'none' };
    const drop = new Event('drop', { bubbles: true, cancelable: true });
    Object.defineProperty(drop, 'dataTransfer', { value: data });
    document.body.dispatchEvent(drop);
  }, sessions);
  await expect(importSummary(page)).toHaveText('Added: 105', { timeout: 60_000 });
  await expect(page.locator('.session-card')).toHaveCount(105);
  // The report of 105 files scrolled out of view keeps its height (the page does not jump), and its entries are all there.
  const report = page.locator('.report-list');
  const height = await report.evaluate((el) => el.getBoundingClientRect().height);
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(report).not.toBeInViewport();
  expect(await report.evaluate((el) => el.getBoundingClientRect().height)).toBe(height);
  await expect(report.getByRole('listitem')).toHaveCount(105);
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(page.getByRole('region', { name: 'Project alpha' }).locator('.session-card')).toHaveCount(52);
  await expect(page.getByRole('region', { name: 'Project beta' }).locator('.session-card')).toHaveCount(53);
  // Filter by project, then sort by title inside it.
  await page.getByRole('combobox', { name: 'Project' }).selectOption({ label: 'alpha' });
  await expect(page.locator('.session-card')).toHaveCount(52);
  await page.getByRole('combobox', { name: 'Sort by' }).selectOption({ label: 'Title' });
  await expect(page.locator('.session-title').first()).toHaveText('Folder session 1');
  await expect(page.locator('.session-title').nth(1)).toHaveText('Folder session 101');
});

test('the file picker and the folder picker import what was chosen', async ({ page }) => {
  await openEmptyLibrary(page);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Import files' }).click();
  await (await chooser).setFiles([{ name: 'welcome.jsonl', mimeType: 'application/x-ndjson', buffer: fixture(SAMPLE.path) }]);
  await expect(importSummary(page)).toHaveText('Added: 1', IMPORTED);

  // A pi-like sessions folder on disk, one folder per project.
  const dir = mkdtempSync(join(tmpdir(), 'rho-pick-'));
  mkdirSync(join(dir, '--home-test-gamma--'));
  mkdirSync(join(dir, '--home-test-delta--'));
  writeFileSync(join(dir, '--home-test-gamma--', 'a.jsonl'), makeSession('11111111-0000-4000-8000-000000000001', 'Gamma work', '/home/test/gamma'));
  writeFileSync(join(dir, '--home-test-delta--', 'b.jsonl'), makeSession('11111111-0000-4000-8000-000000000002', 'Delta work', '/home/test/delta'));
  const folderChooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Import folder' }).click();
  await (await folderChooser).setFiles(dir);
  await expect(importSummary(page)).toHaveText('Added: 2', IMPORTED);
  await expect(card(page, 'Gamma work')).toBeVisible();
  await expect(card(page, 'Delta work')).toBeVisible();
});

test('pasting JSONL text anywhere on the library imports it; the paste box does too', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openEmptyLibrary(page);
  // A real paste: the text goes to the clipboard, then Ctrl+V with no text field focused.
  await page.evaluate((text) => navigator.clipboard.writeText(text), makeSession('22222222-0000-4000-8000-000000000001', 'Pasted on the page'));
  await page.locator('body').click({ position: { x: 5, y: 300 } });
  await page.keyboard.press('ControlOrMeta+V');
  await expect(importSummary(page)).toHaveText('Added: 1', IMPORTED);
  await expect(card(page, 'Pasted on the page')).toBeVisible();

  await page.getByRole('button', { name: 'Paste JSONL' }).click();
  await page.getByLabel('Session JSONL').fill(makeSession('22222222-0000-4000-8000-000000000002', 'Pasted in the box'));
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(card(page, 'Pasted in the box')).toBeVisible();
});
