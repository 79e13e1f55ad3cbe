// The one-file share page, opened from a file in Chromium with the network off: it
// makes no request, runs nothing from the session, opens a big session at its last message,
// follows deep links, finds, and an encrypted page opens only with its password.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { readerSessionText } from '../bench/reader-fixture.ts';
import { importFixture, root, shots } from './app-helpers.ts';
import { PAGES, watchFilePage, writeSharePage } from './share-page-helpers.ts';

test.describe.configure({ timeout: 180_000 });

const encoder = new TextEncoder();
const GENERATED_ENTRIES = 3000;
/** Entry ids of the generated session: the hex of their line number (the header is line 0). */
const generatedId = (line: number) => line.toString(16).padStart(8, '0');

function fixtureBytes(path: string): Uint8Array {
  return new Uint8Array(readFileSync(resolve(root, 'fixtures', path)));
}

/** The file line (1-based) of the last user or assistant message: the last row of the transcript (results fold into their call). */
function lastMessageLine(bytes: Uint8Array): number {
  const lines = new TextDecoder().decode(bytes).trimEnd().split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const role = JSON.parse(lines[i]).message?.role;
    if (role === 'user' || role === 'assistant') return i + 1;
  }
  throw new Error('no message');
}

/** The row of that line is on screen (its link reads "#<line>: …") and the transcript is scrolled to its end. */
async function expectAtEnd(page: Page, line: number) {
  await expect(page.getByRole('link', { name: new RegExp(`^#${line}: link`) })).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => page.locator('.vl').evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)).toBeLessThan(2);
}

/** Opens a page from its file with the network off; every http(s) request is refused and recorded. */
async function openOffline(page: Page, url: string) {
  const watch = await watchFilePage(page, url);
  await page.context().setOffline(true);
  await page.route(/^(https?|wss?|ftp):/, (route) => {
    watch.foreign.push(route.request().url());
    return route.abort();
  });
  await page.goto(url);
  return watch;
}

async function expectQuiet(watch: Awaited<ReturnType<typeof watchFilePage>>) {
  expect(watch.foreign).toEqual([]);
  expect(watch.dialogs).toEqual([]);
  expect(watch.errors).toEqual([]);
  expect(await watch.cspViolations()).toEqual([]);
}

test('a real session opens from a file at its last message, offline, with no request and its own strict CSP', async ({ page }) => {
  const bytes = fixtureBytes('real/pi-mono-large-session.jsonl');
  const { url, size } = await writeSharePage('real-large', bytes, { title: 'pi-mono large session' });
  // The page's fixed part (the reader's script and its worker, both compressed, and styles: ~225 KB)
  // is half of this 974 KB session's page: at most 0.45× of the session (docs/bench.md reports the ratio).
  expect(size).toBeLessThanOrEqual(bytes.length * 0.45);
  const watch = await openOffline(page, url);
  await expectAtEnd(page, lastMessageLine(bytes));
  await expect(page).toHaveTitle('pi-mono large session');
  // A copy with no library: nothing offered that would write to one (these failed or did nothing in a page).
  await expect(page.locator('.rd-row').first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Share a copy' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Export this branch' })).toHaveCount(0);
  await expect(page.locator('.rd-label-btn')).toHaveCount(0);
  const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  expect(csp).toContain("default-src 'none'");
  // The one inline script by its hash; 'strict-dynamic' lets only the script it adds run (the page's own, unpacked).
  expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+' 'strict-dynamic';/);
  expect(csp).not.toMatch(/unsafe|https?:|\*/);
  // The only requests: the file itself and the page's script and worker, blobs made from the page's own bytes.
  expect(watch.requests.every((u) => u.startsWith('file://') || u.startsWith('blob:null/'))).toBe(true);
  await expectQuiet(watch);
  await page.screenshot({ path: resolve(shots, 'share-page-real.png') });
});

test('the hostile fixture is inert in the page: no dialog, no script, no CSP violation, no console error', async ({ page }) => {
  const bytes = fixtureBytes('hostile/hostile.jsonl');
  const { url } = await writeSharePage('hostile', bytes, { title: new TextDecoder().decode(bytes).match(/"title":"([^"\\]*(?:\\.[^"\\]*)*)"/)![1] });
  await page.setViewportSize({ width: 1200, height: 7000 });
  const watch = await openOffline(page, url);
  await expect(page.locator('.rd-row').first()).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Thinking' }).click();
  await page.keyboard.press('g');
  await expect(page.locator('.rd-row[data-entry="h0000001"]')).toBeVisible();
  await page.locator('details:not([open])').evaluateAll((els) => els.forEach((d) => ((d as HTMLDetailsElement).open = true)));
  const text = (await page.locator('.rd-row').allInnerTexts()).join('\n');
  expect(text).toContain('last message <script>window.__pwned=1</script>');
  expect(text).toContain('unknown entry: <img src=x onerror=window.__pwned=1>');
  await expect(page.locator('.rd-title')).toContainText('<img src=x');
  await page.keyboard.press('/');
  await page.getByRole('searchbox', { name: 'Find in session' }).fill('<script>');
  await expect(page.locator('.rd-find-count')).toHaveText(/of/);
  const active = await page.evaluate(() => {
    const reader = document.querySelector('.rd')!;
    return {
      pwned: (window as unknown as { __pwned?: unknown }).__pwned ?? null,
      scripts: reader.querySelectorAll('script, iframe, object, embed, form, style, link, meta, base').length,
      handlers: [...reader.querySelectorAll('*')].filter((el) => [...el.attributes].some((a) => a.name.startsWith('on'))).length,
      links: [...reader.querySelectorAll('a[href]')].map((a) => a.getAttribute('href')!).filter((h) => !/^(https?:|mailto:|#)/.test(h)),
      images: [...document.querySelectorAll('img')].map((i) => i.src).filter((s) => !/^(blob|data):/.test(s)),
    };
  });
  expect(active).toEqual({ pwned: null, scripts: 0, handlers: 0, links: [], images: [] });
  await expectQuiet(watch);
});

test(`a ${GENERATED_ENTRIES}-entry session opens at its last message and scrolls; deep links and find work`, async ({ page }) => {
  const bytes = encoder.encode(readerSessionText(GENERATED_ENTRIES));
  const { url, size } = await writeSharePage('generated', bytes, { title: 'Generated' });
  expect(size).toBeLessThan(bytes.length * 0.5);
  const watch = await openOffline(page, url);
  await expect(page.locator(`.rd-row[data-entry="${generatedId(GENERATED_ENTRIES)}"]`)).toBeVisible({ timeout: 30_000 });
  // Scrolls: to the top with the keyboard, and back down with the wheel.
  await page.keyboard.press('g');
  await expect(page.locator(`.rd-row[data-entry="${generatedId(1)}"]`)).toBeVisible();
  await page.locator('.vl').hover();
  await page.mouse.wheel(0, 4000);
  await expect(page.locator(`.rd-row[data-entry="${generatedId(1)}"]`)).toBeHidden();
  // Find: one question is asked once.
  await page.keyboard.press('/');
  await page.getByRole('searchbox', { name: 'Find in session' }).fill('Question 1201:');
  await expect(page.locator('.rd-find-count')).toHaveText(/^1 of 1$/);
  await expect(page.locator(`.rd-row[data-entry="${generatedId(1201)}"]`)).toBeVisible();
  await expectQuiet(watch);

  // A deep link opens the page at its entry.
  const deep = await page.context().newPage();
  const deepWatch = await openOffline(deep, `${url}#entry=${generatedId(2001)}`);
  await expect(deep.locator(`.rd-row[data-entry="${generatedId(2001)}"]`)).toBeVisible({ timeout: 30_000 });
  await expect(deep.locator(`.rd-row[data-entry="${generatedId(GENERATED_ENTRIES)}"]`)).toHaveCount(0);
  // A row's own link gives the page's form of a deep link (not the app's #/s/<id>?…).
  await deep.locator(`.rd-row[data-entry="${generatedId(2001)}"] a.rd-link`).click();
  await expect.poll(() => deep.evaluate(() => location.hash)).toBe(`#leaf=${generatedId(GENERATED_ENTRIES)}&entry=${generatedId(2001)}`);
  await expect(deep.locator(`.rd-row[data-entry="${generatedId(2001)}"]`)).toBeVisible();
  await expectQuiet(deepWatch);
});

test('an encrypted page refuses a wrong password with a clear message and opens with the right one', async ({ page }) => {
  const bytes = fixtureBytes('real/pi-mono-before-compaction-first-762-lines.jsonl');
  const { path, url } = await writeSharePage('encrypted', bytes, { title: 'Encrypted', passphrase: 'correct horse battery staple' });
  // The session is nowhere in the file as text or as its gzip.
  const html = readFileSync(path, 'utf8');
  expect(html).not.toContain('"type":"session"');
  expect(html).toContain('type="application/x-rho-part"');
  const watch = await openOffline(page, url);
  const password = page.getByLabel('Password');
  await password.fill('wrong password');
  await page.getByRole('button', { name: 'Open' }).click();
  await expect(page.getByRole('alert')).toContainText('Wrong password', { timeout: 60_000 });
  await expect(page.locator('.rd-row')).toHaveCount(0);
  await password.fill('correct horse battery staple');
  await page.getByRole('button', { name: 'Open' }).click();
  await expectAtEnd(page, lastMessageLine(bytes));
  await expectQuiet(watch);
});

test("the reader's export menu makes the page through the app's worker, and it opens from the downloaded file", async ({ page, browser }) => {
  const id = await importFixture(page, 'real/pi-mono-before-compaction-first-762-lines.jsonl');
  await page.goto(`/#/s/${encodeURIComponent(id)}`);
  await expect(page.locator('.rd-row').first()).toBeVisible({ timeout: 30_000 });
  await page.getByLabel('More actions', { exact: true }).first().click();
  const download = page.waitForEvent('download', { timeout: 120_000 });
  await page.getByRole('button', { name: 'Export as web page (HTML): whole session' }).click();
  const path = resolve(PAGES, 'from-app.html');
  await (await download).saveAs(path);
  const reader = await browser.newPage();
  const watch = await openOffline(reader, `file://${path}`);
  await expectAtEnd(reader, lastMessageLine(fixtureBytes('real/pi-mono-before-compaction-first-762-lines.jsonl')));
  await expectQuiet(watch);
  await reader.close();
});
