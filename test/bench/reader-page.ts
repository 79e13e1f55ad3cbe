/**
 * What the reader bench and its diagnostics (profile-reader.ts, compare-scroll.ts, loaf-scroll.ts, row-cost.ts) share: the
 * production build served by `vite preview`, and a generated session imported through the app's
 * file picker.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { type BrowserContext, chromium, type Page } from '@playwright/test';
import { chromiumLaunchOptions } from '../tools/browser.ts';
import { ensureReaderSession, readerSessionId } from './reader-fixture.ts';

const ROOT = resolve(import.meta.dirname, '../..');

/**
 * Serves a build (this checkout's dist/, built first when missing, unless `outDir` names another)
 * with `vite preview` on `port`; resolves once it answers, with a function that stops it.
 */
export async function servePreview(port: number, opts: { outDir?: string; log?: (m: string) => void } = {}): Promise<() => void> {
  if (!opts.outDir && !existsSync(resolve(ROOT, 'dist/index.html'))) {
    opts.log?.('building the app…');
    const built = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('vite build failed');
  }
  // A server left on the port would answer for the build asked for: refuse rather than measure another build.
  const taken = await fetch(`http://localhost:${port}/`).then(
    () => true,
    () => false,
  );
  if (taken) throw new Error(`port ${port} is in use: stop what listens there, or choose another port`);
  const args = ['preview', '--port', String(port), '--strictPort', ...(opts.outDir ? ['--outDir', opts.outDir] : [])];
  const server = spawn(resolve(ROOT, 'node_modules/.bin/vite'), args, { cwd: ROOT, stdio: 'ignore', detached: true });
  const stop = () => {
    try {
      process.kill(-server.pid!, 'SIGTERM');
    } catch (e) {
      // Gone already (it ended on its own): nothing to stop.
      if ((e as NodeJS.ErrnoException).code !== 'ESRCH') throw e;
    }
  };
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`http://localhost:${port}/`)).ok) return stop;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  stop();
  throw new Error(`vite preview did not answer on port ${port}`);
}

/** Imports the generated session of `entries` entries through the app's picker; resolves with its id once the library lists it. */
export async function importReaderSession(page: Page, port: number, entries: number): Promise<string> {
  const path = ensureReaderSession(entries);
  const id = readerSessionId(entries);
  await page.goto(`http://localhost:${port}/`);
  const chooser = page.waitForEvent('filechooser', { timeout: 180_000 });
  await page.getByRole('button', { name: 'Import files' }).first().click();
  await (await chooser).setFiles(path);
  await page.waitForSelector(`a[href="#/s/${encodeURIComponent(id)}"]`, { state: 'attached', timeout: 300_000 });
  return id;
}

/**
 * A laptop-sized page in a fresh browser showing the generated session of `entries` entries in the
 * reader, once its rows are drawn and `settleMs` has passed (diagnostics, not tests: they look at
 * a reader at rest). `close` ends the browser.
 */
export async function openReaderSession(
  port: number,
  entries: number,
  settleMs: number,
): Promise<{ page: Page; context: BrowserContext; close(): Promise<void> }> {
  const browser = await chromium.launch(chromiumLaunchOptions());
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const id = await importReaderSession(page, port, entries);
  await page.evaluate((id) => {
    location.hash = `#/s/${encodeURIComponent(id)}`;
  }, id);
  await page.waitForSelector('.rd-row', { timeout: 60_000 });
  await page.waitForTimeout(settleMs);
  return { page, context, close: () => browser.close() };
}
