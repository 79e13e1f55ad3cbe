// The share dialog in the built app: the review lists what was planted, a hit switched off stays in
// the downloaded copy and every other planted value is gone from it; a password gives an age file
// that the app imports back only with the right password, beside the original.
import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { Decrypter } from 'age-encryption';
import { corpus, needles } from '../worker/share/corpus.ts';
import { dropFiles, importFixture, importSummary, IMPORTED, openEmptyLibrary, SAMPLE } from './app-helpers.ts';

const { text, plants } = corpus();
const SCANNED = { timeout: 30_000 };

async function openShareDialog(page: Page) {
  await openEmptyLibrary(page);
  await dropFiles(page, [{ name: 'corpus.jsonl', text }]);
  await expect(importSummary(page)).toHaveText('Added: 1', IMPORTED);
  await page.getByRole('region', { name: 'Import' }).getByRole('button', { name: 'Close' }).click();
  const row = page.locator('.session-card').first();
  await row.locator('summary').click();
  await row.getByRole('button', { name: 'Share a copy…' }).click();
  const dialog = page.getByRole('dialog', { name: /^Share/ });
  await expect(dialog.getByText(/ of \d+ found will be redacted\./)).toBeVisible(SCANNED);
  return dialog;
}

test('review, leave one hit in, download the cleaned JSONL: only that hit remains', async ({ page }) => {
  const dialog = await openShareDialog(page);
  for (const label of [
    'AWS keys',
    'GitHub tokens',
    'OpenAI keys',
    'Anthropic keys',
    'Slack tokens',
    'Stripe keys',
    'Private keys',
    'JSON Web Tokens',
    'E-mail addresses',
    'Home-directory paths',
  ]) {
    await expect(dialog.getByRole('checkbox', { name: `Redact all: ${label}` })).toBeChecked();
  }
  const hit = dialog.getByRole('checkbox', { name: /^Redact github tokens in user message, line \d+$/ }).first();
  await hit.uncheck();
  await expect(hit).not.toBeChecked();
  const download = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Download' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/\.shared\.jsonl$/);
  const cleaned = readFileSync(await file.path(), 'utf8');
  const token = plants.find((p) => p.name === 'GitHub token')?.value as string;
  expect(cleaned.split(token).length - 1).toBe(1);
  expect(needles(plants).filter((n) => cleaned.includes(n))).toEqual([token]);
  for (const line of cleaned.trimEnd().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
});

test("a password gives an age file; imported back it asks for the password, a wrong one stores nothing, and the copy is in its original's project", async ({
  page,
}) => {
  // Four scrypt runs (2^18, age's default) in a busy browser: a generous ceiling, no timing asserted.
  test.setTimeout(240_000);
  const dialog = await openShareDialog(page);
  await dialog.getByRole('radio', { name: 'Markdown' }).check();
  await dialog.getByLabel('Password', { exact: true }).fill('tide pool 42');
  const download = page.waitForEvent('download', SCANNED);
  await dialog.getByRole('button', { name: 'Download' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/\.md\.age$/);
  const sealed = readFileSync(await file.path());
  const d = new Decrypter();
  d.addPassphrase('tide pool 42');
  const markdown = await d.decrypt(new Uint8Array(sealed), 'text');
  expect(markdown).toMatch(/^# /);
  expect(needles(plants).filter((n) => markdown.includes(n))).toEqual([]);
  await dialog.getByRole('button', { name: 'Close' }).click();

  // A cleaned JSONL with a password, dropped back on the app.
  const again = await openShareAgain(page);
  await again.getByRole('radio', { name: 'Cleaned session (JSONL)' }).check();
  await again.getByLabel('Password', { exact: true }).fill('tide pool 42');
  const jsonl = page.waitForEvent('download', SCANNED);
  await again.getByRole('button', { name: 'Download' }).click();
  const sealedJsonl = await jsonl;
  await again.getByRole('button', { name: 'Close' }).click();
  await page.evaluate(
    ({ name, bytes }) => {
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array(bytes)], name));
      const target = document.querySelector('main') ?? document.body;
      target.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    },
    { name: sealedJsonl.suggestedFilename(), bytes: [...readFileSync(await sealedJsonl.path())] },
  );
  const prompt = page.getByRole('dialog', { name: /^Password for / });
  await prompt.getByLabel('Password').fill('wrong');
  await prompt.getByRole('button', { name: 'Open and import' }).click();
  await expect(prompt.getByRole('alert')).toHaveText(/Wrong password for .*\.age/, SCANNED);
  await expect(page.locator('.session-card')).toHaveCount(1);
  await prompt.getByLabel('Password').fill('tide pool 42');
  await prompt.getByRole('button', { name: 'Open and import' }).click();
  await expect(importSummary(page)).toHaveText(/variant: 1/i, SCANNED);
  await expect(page.locator('.session-card')).toHaveCount(2);
  // The copy's cwd had its home path redacted; it is still the original's project: one group, listed once in the filter, at both sizes.
  const project = (JSON.parse(text.split('\n')[0]).cwd as string).split('/').pop() as string;
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 412, height: 915 },
  ]) {
    await page.setViewportSize(viewport);
    await expect(page.getByRole('combobox', { name: 'Project' }).locator('option')).toHaveText(['All projects', project]);
    await expect(page.locator('section.project')).toHaveCount(1);
    await expect(page.getByRole('region', { name: `Project ${project}` }).locator('.session-card')).toHaveCount(2);
  }
  await page.getByRole('combobox', { name: 'Project' }).selectOption({ label: project });
  await expect(page.locator('.session-card')).toHaveCount(2);
});

async function openShareAgain(page: Page) {
  const row = page.locator('.session-card').first();
  await row.locator('summary').click();
  await row.getByRole('button', { name: 'Share a copy…' }).click();
  const dialog = page.getByRole('dialog', { name: /^Share/ });
  await expect(dialog.getByText(/ of \d+ found will be redacted\./)).toBeVisible(SCANNED);
  return dialog;
}

test('from the reader: the branch on screen as focused Markdown; the whole session holds the other branch too; the dialog passes axe', async ({ page }) => {
  const id = await importFixture(page, SAMPLE.path);
  await page.goto(`/#/s/${encodeURIComponent(id)}`);
  await page.getByRole('button', { name: 'Share a copy' }).click();
  const dialog = page.getByRole('dialog', { name: /^Share/ });
  await expect(dialog.getByText(/found will be redacted\.|Nothing that looks private was found\./)).toBeVisible(SCANNED);
  await expect(dialog.getByRole('radio', { name: 'The branch on screen' })).toBeChecked();
  const axe = await new AxeBuilder({ page }).include('.share-dialog').analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  await dialog.getByRole('radio', { name: 'Markdown' }).check();
  await dialog.getByRole('radio', { name: /^Focused/ }).check();
  const download = async () => {
    const file = page.waitForEvent('download', SCANNED);
    await dialog.getByRole('button', { name: 'Download' }).click();
    const d = await file;
    expect(d.suggestedFilename()).toMatch(/\.md$/);
    return readFileSync(await d.path(), 'utf8');
  };
  const branch = await download();
  expect(branch).toMatch(/^# .+\n\n\| \| \|\n\|---\|---\|\n/);
  expect(branch).toContain('| Scope | the branch on screen |');
  expect(branch).not.toContain('*Another branch');
  await dialog.getByRole('radio', { name: 'The whole session' }).check();
  await expect(dialog.getByText(/found will be redacted\.|Nothing that looks private was found\./)).toBeVisible(SCANNED);
  const whole = await download();
  expect(whole).toContain('*Another branch, going on from entry');
  expect(whole.length).toBeGreaterThan(branch.length);
});

test('Save as… writes the copy through the save dialog: the picker is handed an OPFS file (the dialog itself cannot be driven)', async ({ page }) => {
  // The same interface as the real dialog's answer: a FileSystemFileHandle, here from OPFS.
  await page.addInitScript(() => {
    (window as unknown as { showSaveFilePicker: unknown }).showSaveFilePicker = async ({ suggestedName }: { suggestedName: string }) => {
      (window as unknown as { savedAs: string }).savedAs = suggestedName;
      return (await navigator.storage.getDirectory()).getFileHandle('saved-by-test', { create: true });
    };
  });
  const dialog = await openShareDialog(page);
  await dialog.getByRole('radio', { name: 'Markdown' }).check();
  await dialog.getByRole('button', { name: 'Save as…' }).click();
  await expect(page.getByText(/^Saved .*\.md\.$/)).toBeVisible(SCANNED);
  const saved = await page.evaluate(async () => ({
    name: (window as unknown as { savedAs: string }).savedAs,
    text: await (await (await (await navigator.storage.getDirectory()).getFileHandle('saved-by-test')).getFile()).text(),
  }));
  expect(saved.name).toMatch(/\.md$/);
  expect(saved.text).toMatch(/^# /);
  expect(needles(plants).filter((n) => saved.text.includes(n))).toEqual([]);
});
