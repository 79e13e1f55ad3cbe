/**
 * The reader in Chromium: time from choosing a session to its last message on screen, for 1k /
 * 10k / 30k entries, beside the time to read the file's bytes from OPFS; and the longest
 * main-thread task while scrolling (PerformanceObserver 'longtask').
 *
 * Serves the production build (built first when dist/ is missing) on port 4202, imports each
 * generated session through the app's file picker, then opens it by its deep link.
 * Sizes: `npm run bench -- reader --sizes 1,10,30` (thousands of entries).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { chromiumLaunchOptions } from '../tools/browser.ts';
import { ensureReaderSession } from './reader-fixture.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const PORT = Number(process.env.READER_BENCH_PORT ?? 4202);

interface Row { name: string; value: number; unit: string; baseline?: number; ratio?: number; target?: string; ok?: boolean; note?: string }
interface Context { sizes: number[] | null; runs: number | null; row(row: Row): void; log(message: string): void }

/** Starts `vite preview` on PORT; resolves once it answers. */
async function startServer(log: (m: string) => void): Promise<() => void> {
  if (!existsSync(resolve(ROOT, 'dist/index.html'))) {
    log('reader bench: building the app…');
    const built = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('vite build failed');
  }
  const server = spawn(resolve(ROOT, 'node_modules/.bin/vite'), ['preview', '--port', String(PORT), '--strictPort'], { cwd: ROOT, stdio: 'ignore', detached: true });
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`http://localhost:${PORT}/`)).ok) return () => process.kill(-server.pid!, 'SIGTERM');
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 200));
  }
  process.kill(-server.pid!, 'SIGTERM');
  throw new Error(`vite preview did not answer on port ${PORT}`);
}

/** Imports a file through the app's picker and waits until the library lists it. */
async function importFile(page: Page, path: string, id: string): Promise<void> {
  await page.goto(`http://localhost:${PORT}/`);
  const input = page.locator('input[type="file"]').first();
  await input.waitFor({ state: 'attached', timeout: 30_000 });
  await input.setInputFiles(path);
  await page.waitForSelector(`a[href*="${encodeURIComponent(id)}"], a[href*="${id}"]`, { timeout: 180_000 });
}

/** Milliseconds to read the stored file's bytes straight from OPFS (the floor for any reader). */
async function readBytesMs(page: Page, size: number): Promise<number | null> {
  return page.evaluate(async (size) => {
    const root = await navigator.storage.getDirectory();
    const stack: FileSystemDirectoryHandle[] = [root];
    while (stack.length) {
      const dir = stack.pop()!;
      for await (const handle of (dir as unknown as { values(): AsyncIterable<FileSystemHandle> }).values()) {
        if (handle.kind === 'directory') stack.push(handle as FileSystemDirectoryHandle);
        else {
          const file = await (handle as FileSystemFileHandle).getFile();
          if (file.size !== size) continue;
          const t0 = performance.now();
          await file.arrayBuffer();
          return performance.now() - t0;
        }
      }
    }
    return null;
  }, size);
}

/** Opens the session by its deep link and waits until its last item is rendered on screen. */
async function openToLastMs(page: Page, id: string): Promise<number> {
  return page.evaluate(async (id) => {
    const t0 = performance.now();
    location.hash = `#/s/${encodeURIComponent(id)}`;
    for (;;) {
      await new Promise((r) => requestAnimationFrame(r));
      const any = document.querySelector('.vl-row');
      const count = Number(any?.getAttribute('aria-setsize') ?? 0);
      const last = count ? document.querySelector(`.vl-row[data-index="${count - 1}"]`) : null;
      const scroller = document.querySelector('.vl');
      if (last && scroller && last.querySelector('.rd-row')) {
        const box = last.getBoundingClientRect();
        const view = scroller.getBoundingClientRect();
        if (box.top < view.bottom && box.bottom <= view.bottom + 2) return performance.now() - t0;
      }
      if (performance.now() - t0 > 120_000) throw new Error('last message never came on screen');
    }
  }, id);
}

/** Scrolls up fast, jumps to the middle and scrolls on; returns the longest long task and the longest frame. */
async function scrollLongestTask(page: Page): Promise<{ longTask: number; longFrame: number }> {
  return page.evaluate(async () => {
    let longTask = 0;
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) longTask = Math.max(longTask, entry.duration);
    });
    observer.observe({ type: 'longtask', buffered: false });
    const el = document.querySelector('.vl') as HTMLElement;
    let longFrame = 0;
    let last = performance.now();
    const frame = async () => {
      await new Promise((r) => requestAnimationFrame(r));
      const now = performance.now();
      longFrame = Math.max(longFrame, now - last);
      last = now;
    };
    for (let i = 0; i < 120; i++) {
      el.scrollTop -= 1500;
      await frame();
    }
    el.scrollTop = el.scrollHeight / 2;
    for (let i = 0; i < 120; i++) {
      el.scrollTop += 1200;
      await frame();
    }
    await new Promise((r) => setTimeout(r, 300));
    observer.disconnect();
    return { longTask, longFrame };
  });
}

export default {
  name: 'reader',
  description: 'Reader in Chromium: choose → last message on screen (1k/10k/30k entries) vs reading the bytes; longest task while scrolling',
  defaultSizes: [1, 10, 30],
  async run(ctx: Context) {
    const stop = await startServer(ctx.log);
    const browser = await chromium.launch(chromiumLaunchOptions());
    try {
      for (const thousands of ctx.sizes ?? [1, 10, 30]) {
        const entries = Math.round(thousands * 1000);
        const path = ensureReaderSession(entries);
        const size = statSync(path).size;
        const id = `0193a5c2-0000-7000-8000-${String(entries).padStart(12, '0')}`;
        const label = `${entries / 1000}k entries (${(size / 1e6).toFixed(0)} MB)`;
        ctx.log(`reader bench: ${label}`);
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        const page = await context.newPage();
        await importFile(page, path, id);
        const bytesMs = await readBytesMs(page, size);
        const openMs = await openToLastMs(page, id);
        ctx.row({
          name: `reader open ${label}: choose → last message on screen`,
          value: openMs,
          unit: 'ms',
          ...(bytesMs !== null ? { baseline: bytesMs, ratio: openMs / bytesMs } : { note: 'stored file not found in OPFS for the bytes baseline' }),
          ...(entries >= 30_000 ? { target: '< 1000 ms', ok: openMs < 1000 } : {}),
        });
        if (bytesMs !== null) ctx.row({ name: `read the file bytes from OPFS, ${label}`, value: bytesMs, unit: 'ms' });
        const { longTask, longFrame } = await scrollLongestTask(page);
        ctx.row({ name: `reader scroll ${label}: longest main-thread task`, value: longTask, unit: 'ms', target: '< 50 ms', ok: longTask < 50, note: longTask === 0 ? 'no task over 50 ms was reported' : undefined });
        ctx.row({ name: `reader scroll ${label}: longest frame`, value: longFrame, unit: 'ms' });
        await context.close();
      }
    } finally {
      await browser.close();
      stop();
    }
  },
};
