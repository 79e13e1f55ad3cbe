/**
 * A diagnostic, not a bench: traces the reader in Chromium while it opens a generated session and
 * while the bench's scroll script runs, and prints the longest main-thread tasks with what they
 * spent their time on (trace events and CPU samples by function).
 *
 *   npx vite build [--minify false] && PROFILE_PORT=4323 npx tsx test/bench/profile-reader.ts 30
 *   IMMEDIATE=1: one trace of the open and the scroll right after it (as the bench does);
 *   CPU=1: a plain CPU profile of the open, no tracing (tracing inflates layout a lot);
 *   LIGHT=1: trace events only, no CPU samples (less distortion); LAYOUTS=1: every Layout inside the longest tasks;
 *   THROTTLE=4: the CPU slowed 4× (Emulation.setCPUThrottlingRate, as the reader bench's phone rows) after the import;
 *   FORCED=1 (with LIGHT=1): the layouts and style recalcs inside the longest tasks, with the JS stack that forced each (none: the
 *   browser's own) and the calls each task ran; LOAF=1: no tracing at all, the open's long animation frames with their scripts
 *   and each script's forced style and layout time (the cheapest way to see which task forces a layout);
 *   SCROLL_PX=250: scroll at 250 px a frame rather than the fling; PROFILE_OUT=dir: serve another build (e.g. main's, for a side-by-side run).
 */
import { chromium } from '@playwright/test';
import { chromiumLaunchOptions } from '../tools/browser.ts';
import { analyse, trace } from './reader-trace.ts';
import { importReaderSession, servePreview } from './reader-page.ts';

const PORT = Number(process.env.PROFILE_PORT ?? 4323);
const thousands = Number(process.argv[2] ?? 30);

/** SCROLL_PX=250: the bench's slower scroll (px a frame each way) instead of its fling. */
const [UP, DOWN] = process.env.SCROLL_PX ? [Number(process.env.SCROLL_PX), Number(process.env.SCROLL_PX)] : [1500, 1200];
const SCROLL_SCRIPT = `(async () => {
  const el = document.querySelector('.vl');
  for (let i = 0; i < 240; i++) {
    if (i === 120) el.scrollTop = el.scrollHeight / 2;
    else el.scrollTop += i < 120 ? -${UP} : ${DOWN};
    await new Promise((r) => requestAnimationFrame(r));
  }
  await new Promise((r) => setTimeout(r, 300));
})()`;

async function main() {
  const stop = await servePreview(PORT, { outDir: process.env.PROFILE_OUT });
  try {
    const browser = await chromium.launch(chromiumLaunchOptions());
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const id = await importReaderSession(page, PORT, thousands * 1000);
    if (process.env.THROTTLE) await (await context.newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: Number(process.env.THROTTLE) });
    if (process.env.LOAF) {
      const frames = await page.evaluate(async (id) => {
        const seen: Array<Record<string, any>> = [];
        const observer = new PerformanceObserver((list) => seen.push(...list.getEntries().map((e) => e.toJSON())));
        observer.observe({ type: 'long-animation-frame', buffered: false });
        const t0 = performance.now();
        location.hash = `#/s/${encodeURIComponent(id)}`;
        while (!document.querySelector('.rd-row')) await new Promise((r) => requestAnimationFrame(r));
        await new Promise((r) => setTimeout(r, 1500));
        observer.disconnect();
        return seen.map(
          (f) =>
            ({ ...f, startTime: f.startTime - t0, rendering: f.styleAndLayoutStart ? f.startTime + f.duration - f.styleAndLayoutStart : 0 }) as Record<
              string,
              any
            >,
        );
      }, id);
      for (const f of frames) {
        console.log(
          `frame @${f.startTime.toFixed(0)} ms: ${f.duration.toFixed(0)} ms, blocking ${f.blockingDuration.toFixed(0)}, its rendering steps (style, layout, paint) ${f.rendering.toFixed(0)} ms`,
        );
        for (const s of f.scripts)
          console.log(
            `   ${s.invokerType} ${s.invoker} ${s.sourceFunctionName}@${String(s.sourceURL).split('/').pop()}: ${s.duration.toFixed(0)} ms, forced style and layout ${s.forcedStyleAndLayoutDuration.toFixed(0)} ms`,
          );
      }
      await browser.close();
      return;
    }
    if (process.env.CPU) {
      // A plain CPU profile of the open (no tracing: its layout instrumentation distorts the numbers).
      const cdp = await context.newCDPSession(page);
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
      await page.evaluate((id) => {
        location.hash = `#/s/${encodeURIComponent(id)}`;
      }, id);
      await page.waitForSelector('.rd-row', { timeout: 60_000 });
      const { profile } = (await cdp.send('Profiler.stop')) as {
        profile: {
          nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }>;
          samples: number[];
          timeDeltas: number[];
        };
      };
      const byId = new Map(profile.nodes.map((n) => [n.id, n]));
      const parent = new Map<number, number>();
      for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
      const name = (id: number) => {
        const n = byId.get(id)!;
        return `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`;
      };
      // Find the busiest stretch: samples in 100 ms windows; print self and inclusive for the worst window.
      let t = 0;
      const times = profile.timeDeltas.map((d) => (t += d));
      let best = 0;
      let bestAt = 0;
      for (let i = 0; i < times.length; i++) {
        let busy = 0;
        for (let j = i; j < times.length && times[j] - times[i] < 100_000; j++)
          if (!name(profile.samples[j]).startsWith('(idle)') && !name(profile.samples[j]).startsWith('(program)')) busy++;
        if (busy > best) {
          best = busy;
          bestAt = i;
        }
      }
      const self = new Map<string, number>();
      const incl = new Map<string, number>();
      for (let j = bestAt; j < times.length && times[j] - times[bestAt] < 100_000; j++) {
        const leaf = profile.samples[j];
        self.set(name(leaf), (self.get(name(leaf)) ?? 0) + 1);
        const seen = new Set<string>();
        for (let n: number | undefined = leaf; n !== undefined; n = parent.get(n)) seen.add(name(n));
        for (const f of seen) incl.set(f, (incl.get(f) ?? 0) + 1);
      }
      console.log('busiest 100 ms:', best, 'samples of 0.2 ms');
      console.log(
        'self:',
        [...self]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 20)
          .map(([n, c]) => `${n}=${c}`)
          .join(' ; '),
      );
      console.log(
        'inclusive:',
        [...incl]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 40)
          .map(([n, c]) => `${n}=${c}`)
          .join(' ; '),
      );
      await browser.close();
      return;
    }
    if (process.env.IMMEDIATE) {
      const both = await trace(page, async () => {
        await page.evaluate((id) => {
          location.hash = `#/s/${encodeURIComponent(id)}`;
        }, id);
        await page.waitForSelector('.rd-row', { timeout: 60_000 });
        await page.evaluate(SCROLL_SCRIPT);
      });
      analyse('open+scroll', both, Number(process.env.TOP ?? 5));
      await browser.close();
      return;
    }
    const open = await trace(page, async () => {
      await page.evaluate((id) => {
        location.hash = `#/s/${encodeURIComponent(id)}`;
      }, id);
      await page.waitForSelector('.rd-row', { timeout: 60_000 });
      await page.waitForTimeout(1500);
    });
    analyse('open', open, Number(process.env.TOP ?? 3));
    const scroll = await trace(page, () => page.evaluate(SCROLL_SCRIPT));
    analyse('scroll', scroll, Number(process.env.TOP ?? 5));
    await browser.close();
  } finally {
    stop();
  }
}

await main();
