/**
 * A diagnostic, not a bench: the reader bench's scroll pass, repeated, against two builds served
 * side by side (this worktree's dist/ and another one), interleaved so machine noise hits both.
 *   npx tsx test/bench/compare-scroll.ts <other dist dir> [thousands] [rounds]
 *   COMPARE_PORTS=4325,4326: the two preview ports; THROTTLE=4: the CPU slowed 4× for the scroll passes.
 */
import { resolve } from 'node:path';
import { chromium } from '@playwright/test';
import { chromiumLaunchOptions } from '../tools/browser.ts';
import { importReaderSession, servePreview } from './reader-page.ts';

const other = process.argv[2];
const thousands = Number(process.argv[3] ?? 1);
const rounds = Number(process.argv[4] ?? 3);
const [portNew, portOther] = (process.env.COMPARE_PORTS ?? '4325,4326').split(',').map(Number);

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

const stops = [await servePreview(portNew), await servePreview(portOther, { outDir: resolve(other) })];
try {
  const browser = await chromium.launch(chromiumLaunchOptions());
  const pages = [];
  for (const [name, port] of [
    ['new', portNew],
    ['other', portOther],
  ] as const) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const id = await importReaderSession(page, port, thousands * 1000);
    await page.evaluate((id) => {
      location.hash = `#/s/${encodeURIComponent(id)}`;
    }, id);
    await page.waitForSelector('.rd-row');
    await page.waitForTimeout(1000);
    if (process.env.THROTTLE) await (await context.newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: Number(process.env.THROTTLE) });
    pages.push({ name, page });
  }
  for (let r = 0; r < rounds; r++) {
    for (const { name, page } of pages) {
      await page.bringToFront();
      await page.evaluate(() => {
        const el = document.querySelector('.vl')!;
        el.scrollTop = el.scrollHeight;
      });
      await page.waitForTimeout(500);
      const res = (await page.evaluate(SCROLL)) as Record<string, number>;
      console.log(
        name.padEnd(6),
        Object.entries(res)
          .map(([k, v]) => `${k}=${typeof v === 'number' ? v.toFixed(0) : v}`)
          .join(' '),
      );
    }
  }
  await browser.close();
} finally {
  for (const stop of stops) stop();
}
