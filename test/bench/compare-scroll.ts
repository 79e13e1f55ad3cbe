/**
 * A diagnostic, not a bench: the reader bench's scroll pass, repeated, against two builds served
 * side by side (this worktree's dist/ and another one), interleaved so machine noise hits both.
 *   npx tsx test/bench/compare-scroll.ts <other dist dir> [thousands] [rounds]
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { chromium } from '@playwright/test';
import { chromiumLaunchOptions } from '../tools/browser.ts';
import { ensureReaderSession } from './reader-fixture.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const other = process.argv[2];
const thousands = Number(process.argv[3] ?? 1);
const rounds = Number(process.argv[4] ?? 3);

const SCROLL = `(async () => {
  const tasks = [];
  const observer = new PerformanceObserver((list) => { for (const e of list.getEntries()) tasks.push(e.duration); });
  observer.observe({ type: 'longtask', buffered: false });
  const el = document.querySelector('.vl');
  const frames = [];
  const slow = [];
  let last = performance.now();
  for (let i = 0; i < 240; i++) {
    if (i === 120) el.scrollTop = el.scrollHeight / 2;
    else el.scrollTop += i < 120 ? -1500 : 1200;
    await new Promise((r) => requestAnimationFrame(r));
    const now = performance.now();
    frames.push(now - last);
    if (now - last > 40) slow.push(i + ':' + Math.round(now - last) + ':' + document.querySelectorAll('.vl-row').length + ':' + document.querySelectorAll('.rd-placeholder').length);
    last = now;
  }
  await new Promise((r) => setTimeout(r, 300));
  observer.disconnect();
  frames.sort((a, b) => a - b);
  return { max: Math.max(0, ...tasks), over50: tasks.filter((t) => t >= 50).length, sum: tasks.reduce((a, b) => a + b, 0), p95: frames[Math.floor(frames.length * 0.95)], scrollEnd: el.scrollTop, slow: slow.join(' ') };
})()`;

async function serve(port: number, outDir: string) {
  const server = spawn(resolve(ROOT, 'node_modules/.bin/vite'), ['preview', '--port', String(port), '--strictPort', '--outDir', outDir], { cwd: ROOT, stdio: 'ignore', detached: true });
  for (let i = 0; i < 100; i++) {
    try { if ((await fetch(`http://localhost:${port}/`)).ok) break; } catch { /* not up */ }
    await new Promise((r) => setTimeout(r, 200));
  }
  return () => process.kill(-server.pid!, 'SIGTERM');
}

const stops = [await serve(4325, resolve(ROOT, 'dist')), await serve(4326, resolve(other))];
try {
  const entries = thousands * 1000;
  const path = ensureReaderSession(entries);
  const id = `0193a5c2-0000-7000-8000-${String(entries).padStart(12, '0')}`;
  const browser = await chromium.launch(chromiumLaunchOptions());
  const pages = [];
  for (const [name, port] of [['new', 4325], ['other', 4326]] as const) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`http://localhost:${port}/`);
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Import files' }).first().click();
    await (await chooser).setFiles(path);
    await page.waitForSelector(`a[href="#/s/${encodeURIComponent(id)}"]`, { state: 'attached', timeout: 300_000 });
    await page.evaluate((id) => { location.hash = `#/s/${encodeURIComponent(id)}`; }, id);
    await page.waitForSelector('.rd-row');
    await page.waitForTimeout(1000);
    pages.push({ name, page });
  }
  for (let r = 0; r < rounds; r++) {
    for (const { name, page } of pages) {
      await page.bringToFront();
      await page.evaluate(() => { const el = document.querySelector('.vl')!; el.scrollTop = el.scrollHeight; });
      await page.waitForTimeout(500);
      const res = await page.evaluate(SCROLL) as Record<string, number>;
      console.log(name.padEnd(6), Object.entries(res).map(([k, v]) => `${k}=${typeof v === 'number' ? v.toFixed(0) : v}`).join(' '));
    }
  }
  await browser.close();
} finally {
  for (const stop of stops) stop();
}
