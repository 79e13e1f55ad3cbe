/**
 * A diagnostic, not a bench: where the Usage screen's first open after a reload spends its time,
 * without a profiler attached: the route change, the chunk's requests (resource timing: start,
 * service-worker start, response end) and the screen drawn, for REPEAT reloads at THROTTLE× CPU.
 *
 *   USER_DIR=/tmp/x OUT=dist PROFILE_PORT=4323 THROTTLE=4 REPEAT=5 npx tsx test/bench/cold-usage.ts 2000
 * USER_DIR keeps the browser's profile (and so the imported library in OPFS) for the next run.
 * TRACE=1: the main thread's trace events by name; TRACE=tasks: its tasks of 50 ms or more, each
 * with what it consists of (trace-tasks.ts), for the first open's tasks.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { chromiumLaunchOptions } from '../tools/browser.ts';
import { servePreview } from './reader-page.ts';
import { printLongTasks, TRACE_CATEGORIES, type TraceEvent } from './trace-tasks.ts';
import { generateLibrary } from './usage.bench.ts';

const PORT = Number(process.env.PROFILE_PORT ?? 4323);
const count = Number(process.argv[2] ?? 2000);

async function main() {
  const stop = await servePreview(PORT, { outDir: process.env.OUT ?? 'dist' });
  console.log(`serving ${process.env.OUT ?? 'dist'} on ${PORT}`);
  const userDir = process.env.USER_DIR ?? join(tmpdir(), `rho-usage-cold-${process.pid}`);
  const context = await chromium.launchPersistentContext(userDir, { ...chromiumLaunchOptions(), viewport: { width: 390, height: 844 } });
  const ready = `main[data-usage-ready="${count}"]:not([hidden] *)`;
  const library = 'main.library .session-card';
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`http://localhost:${PORT}/`);
    await page.waitForSelector('main.library', { timeout: 60_000 });
    // The library imported into this profile once: a file beside the profile says so.
    const mark = join(userDir, `imported-${count}`);
    if (!existsSync(mark)) {
      const dir = join(tmpdir(), `rho-usage-cold-files-${process.pid}`);
      mkdirSync(dir, { recursive: true });
      const { paths } = generateLibrary(count, dir);
      const t0 = Date.now();
      const chooser = page.waitForEvent('filechooser', { timeout: 60_000 });
      await page.getByRole('button', { name: 'Import files' }).first().click();
      await (await chooser).setFiles(paths);
      await page.getByText(`Added: ${count}`).waitFor({ timeout: 1_200_000 });
      console.log(`imported in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
      rmSync(dir, { recursive: true, force: true });
      writeFileSync(mark, '');
    }
    // A fresh service worker for this build (a kept profile would keep an older build's).
    await page.evaluate(async () => {
      for (const r of await navigator.serviceWorker.getRegistrations()) await r.unregister();
      for (const k of await caches.keys()) await caches.delete(k);
    });
    await page.reload();
    await page
      .waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 60_000 })
      .catch(async () => {
        await page.reload();
        await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 60_000 });
      });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: Number(process.env.THROTTLE ?? 4) });
    for (let r = 0; r < Number(process.env.REPEAT ?? 3); r++) {
      await page.evaluate(() => history.replaceState(null, '', '/#/'));
      await page.reload();
      await page.waitForSelector(library, { timeout: 120_000 });
      if (process.env.SETTLE) await page.waitForTimeout(Number(process.env.SETTLE));
      if (process.env.WAIT_PREPARED) await page.waitForSelector('html[data-usage-prepared]', { state: 'attached', timeout: 120_000 });
      const traceEvents: TraceEvent[] = [];
      let collect = (_: { value: object[] }) => {};
      if (process.env.TRACE) {
        collect = (d) => traceEvents.push(...(d.value as TraceEvent[]));
        cdp.on('Tracing.dataCollected', collect);
        await cdp.send('Tracing.start', { categories: TRACE_CATEGORIES.join(','), transferMode: 'ReportEvents' });
      }
      const t = await page.evaluate(
        async ({ selector }) => {
          const prepared = document.documentElement.dataset.usagePrepared;
          // Drawn ahead (hidden) before the open?
          const predrawn = document.querySelector('main.usage') !== null;
          const t0 = performance.now();
          const before = performance.getEntriesByType('resource').filter((e) => /Usage/.test(e.name)).length;
          location.hash = '#/usage';
          let frames = 0;
          for (;;) {
            await new Promise((r) => requestAnimationFrame(r));
            frames++;
            if (document.querySelector(selector)) break;
          }
          const shown = performance.now();
          await new Promise((r) => requestAnimationFrame(r));
          const drawn = performance.now();
          const res = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
            .filter((e) => /Usage/.test(e.name))
            .map(
              (e) =>
                `${e.name.split('/').pop()} start ${(e.startTime - t0).toFixed(0)} sw ${(e.workerStart ? e.workerStart - t0 : Number.NaN).toFixed(0)} end ${(e.responseEnd - t0).toFixed(0)}`,
            );
          // Where each section starts, against the window's height (what the first screenful holds).
          const tops = [...document.querySelectorAll('main.usage:not([hidden] *) section[aria-labelledby]')].map(
            (s) => `${s.getAttribute('aria-labelledby')} ${Math.round(s.getBoundingClientRect().top)}`,
          );
          const fold = `window ${innerHeight}: ${tops.join(', ')}`;
          return { prepared, predrawn, total: drawn - t0, shown: shown - t0, frames, before, res, sw: !!navigator.serviceWorker.controller, fold };
        },
        { selector: ready },
      );
      if (process.env.TRACE) {
        const done = new Promise((res) => cdp.once('Tracing.tracingComplete', res));
        await cdp.send('Tracing.end');
        await done;
        cdp.off('Tracing.dataCollected', collect);
        const events = traceEvents;
        // TRACE=tasks: the main thread's top-level tasks of 50 ms or more (thread time × the throttling), and what they are.
        if (process.env.TRACE === 'tasks') printLongTasks(events, 50, Number(process.env.THROTTLE ?? 4));
        const mains = events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
        let best = { pid: 0, tid: 0, sum: -1 };
        for (const m of mains) {
          const sum = events.filter((e) => e.pid === m.pid && e.tid === m.tid && e.name === 'RunTask').reduce((a, e) => a + (e.dur ?? 0), 0);
          if (sum > best.sum) best = { pid: m.pid, tid: m.tid, sum };
        }
        // Wall time (dur) and the thread's CPU time (tdur): under load the wall time inflates, the CPU time much less.
        const byName = new Map<string, { dur: number; cpu: number }>();
        for (const e of events) {
          if (e.pid !== best.pid || e.tid !== best.tid || e.ph !== 'X') continue;
          const sum = byName.get(e.name) ?? { dur: 0, cpu: 0 };
          sum.dur += e.dur ?? 0;
          sum.cpu += e.tdur ?? 0;
          byName.set(e.name, sum);
        }
        console.log(
          [...byName]
            .sort((a, b) => b[1].cpu - a[1].cpu)
            .slice(0, 24)
            .map(([n, d]) => `  ${(d.dur / 1000).toFixed(1)} ms (CPU ${(d.cpu / 1000).toFixed(1)})  ${n}`)
            .join('\n'),
        );
      }
      console.log(
        `open ${r + 1}: ${t.total.toFixed(0)} ms (in DOM at ${t.shown.toFixed(0)}, ${t.frames} frames; sw ${t.sw}; earlier usage requests ${t.before}; prepared ${t.prepared}; drawn ahead ${t.predrawn}) ${t.res.join(' | ')}\n  ${t.fold}`,
      );
    }
  } finally {
    await context.close();
    stop();
    if (!process.env.USER_DIR) rmSync(userDir, { recursive: true, force: true });
  }
}

await main();
