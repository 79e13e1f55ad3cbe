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
import { chromium, type Page } from '@playwright/test';
import { chromiumLaunchOptions } from '../tools/browser.ts';
import { importReaderSession, servePreview } from './reader-page.ts';

const PORT = Number(process.env.PROFILE_PORT ?? 4323);
const thousands = Number(process.argv[2] ?? 30);

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  /** Thread (CPU) time: under load the task's wall time grows while the thread waits for a core; this does not. */
  tdur?: number;
  id?: string;
  args?: Record<string, any>;
  cat?: string;
}

async function trace(page: Page, run: () => Promise<unknown>): Promise<TraceEvent[]> {
  const browser = page.context().browser()!;
  await browser.startTracing(page, {
    categories: process.env.LIGHT
      ? ['devtools.timeline', 'disabled-by-default-devtools.timeline', ...(process.env.FORCED ? ['disabled-by-default-devtools.timeline.stack'] : [])]
      : ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'disabled-by-default-v8.cpu_profiler', 'v8.execute', 'blink.user_timing'],
  });
  await run();
  const buffer = await browser.stopTracing();
  const json = JSON.parse(buffer.toString('utf8'));
  return (Array.isArray(json) ? json : json.traceEvents) as TraceEvent[];
}

function analyse(label: string, events: TraceEvent[], top = 5) {
  const names = events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  // The renderer main thread with the most RunTask time is the page's.
  let main: { pid: number; tid: number } | null = null;
  let best = -1;
  for (const n of names) {
    const sum = events.filter((e) => e.pid === n.pid && e.tid === n.tid && e.name === 'RunTask').reduce((s, e) => s + (e.dur ?? 0), 0);
    if (sum > best) {
      best = sum;
      main = { pid: n.pid, tid: n.tid };
    }
  }
  if (!main) return console.log(label, 'no main thread');
  const mine = events.filter((e) => e.pid === main!.pid && e.tid === main!.tid);
  // BY_CPU=1: the tasks that took the most thread time first (a shared, loaded machine stretches wall time, not this).
  const key = (e: TraceEvent) => (process.env.BY_CPU ? (e.tdur ?? 0) : (e.dur ?? 0));
  const tasks = mine.filter((e) => e.name === 'RunTask' && e.ph === 'X').sort((a, b) => key(b) - key(a));
  // CPU samples of the main thread.
  const samples: Array<{ ts: number; stack: string[] }> = [];
  const profiles = new Map<string, { start: number; nodes: Map<number, { fn: string; parent?: number }>; t: number }>();
  for (const e of events) {
    if (e.pid !== main.pid) continue;
    if (e.name === 'Profile' && e.tid !== main.tid) continue;
    if (e.name === 'Profile') profiles.set(e.id!, { start: e.args!.data.startTime, nodes: new Map(), t: e.args!.data.startTime });
    if (e.name === 'ProfileChunk') {
      const p = profiles.get(e.id!);
      if (!p) continue;
      const data = e.args!.data;
      for (const node of data.cpuProfile?.nodes ?? []) {
        const cf = node.callFrame;
        const file = String(cf.url ?? '')
          .split('/')
          .pop();
        p.nodes.set(node.id, { fn: `${cf.functionName || '(anon)'} ${file}:${cf.lineNumber}`, parent: node.parent });
      }
      const ids: number[] = data.cpuProfile?.samples ?? [];
      const deltas: number[] = data.timeDeltas ?? [];
      for (let i = 0; i < ids.length; i++) {
        p.t += deltas[i] ?? 0;
        const stack: string[] = [];
        let n: number | undefined = ids[i];
        while (n !== undefined) {
          const node = p.nodes.get(n);
          if (!node) break;
          stack.push(node.fn);
          n = node.parent;
        }
        samples.push({ ts: p.t, stack });
      }
    }
  }
  console.log(
    `\n=== ${label}: ${tasks.length} tasks, longest: ${tasks
      .slice(0, 10)
      .map((t) => `${((t.dur ?? 0) / 1000).toFixed(1)} (cpu ${((t.tdur ?? 0) / 1000).toFixed(1)})`)
      .join(', ')} ms; samples ${samples.length}`,
  );
  for (const task of tasks.slice(0, top)) {
    const end = task.ts + (task.dur ?? 0);
    const inside = mine.filter((e) => e.ph === 'X' && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= end && e !== task);
    const byName = new Map<string, number>();
    for (const e of inside) byName.set(e.name, (byName.get(e.name) ?? 0) + (e.dur ?? 0));
    console.log(
      `-- task ${((task.dur ?? 0) / 1000).toFixed(1)} ms (cpu ${((task.tdur ?? 0) / 1000).toFixed(1)}): ` +
        [...byName]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 8)
          .map(([n, d]) => `${n} ${(d / 1000).toFixed(1)}`)
          .join(' | '),
    );
    const self = new Map<string, number>();
    const incl = new Map<string, number>();
    const within = samples.filter((s) => s.ts >= task.ts && s.ts <= end);
    for (const s of within) {
      self.set(s.stack[0], (self.get(s.stack[0]) ?? 0) + 1);
      for (const f of new Set(s.stack)) incl.set(f, (incl.get(f) ?? 0) + 1);
    }
    if (process.env.FORCED)
      for (const e of inside.filter((x) => (x.name === 'Layout' || x.name === 'UpdateLayoutTree') && (x.dur ?? 0) > 300)) {
        const stack = (e.args?.beginData?.stackTrace ?? e.args?.data?.stackTrace ?? []) as Array<{ functionName: string; url: string; lineNumber: number }>;
        console.log(
          `   ${e.name} ${((e.dur ?? 0) / 1000).toFixed(1)} ms ${stack.length ? 'forced by' : '(no JS stack)'} ${stack
            .slice(0, 6)
            .map((f) => `${f.functionName || '(anon)'}@${String(f.url).split('/').pop()}:${f.lineNumber}`)
            .join(' < ')}`,
        );
      }
    if (process.env.FORCED)
      console.log(
        '   calls: ' +
          inside
            .filter((e) => e.name === 'FunctionCall' || e.name === 'TimerFire' || e.name === 'EventDispatch' || e.name === 'HandlePostMessage')
            .slice(0, 12)
            .map(
              (e) =>
                `${e.name} ${((e.dur ?? 0) / 1000).toFixed(1)} ${e.args?.data?.functionName ?? e.args?.data?.type ?? ''}@${String(e.args?.data?.url ?? '')
                  .split('/')
                  .pop()}:${e.args?.data?.lineNumber ?? ''}`,
            )
            .join(' ; '),
      );
    if (process.env.LAYOUTS)
      for (const e of inside.filter((x) => x.name === 'Layout'))
        console.log(
          '   layout',
          ((e.dur ?? 0) / 1000).toFixed(1),
          JSON.stringify(e.args?.beginData ?? {}).slice(0, 300),
          JSON.stringify(e.args?.endData ?? {}).slice(0, 200),
        );
    // Direct children of the task, in order: the shape of the frame.
    const direct = inside.filter(
      (e) => !inside.some((p) => p !== e && p.ts <= e.ts && p.ts + (p.dur ?? 0) >= e.ts + (e.dur ?? 0) && (p.dur ?? 0) > (e.dur ?? 0)),
    );
    console.log(
      '   order: ' +
        direct
          .filter((e) => (e.dur ?? 0) > 500)
          .map(
            (e) =>
              `${e.name}${e.args?.data?.functionName ? '(' + e.args.data.functionName + ')' : e.args?.data?.type ? '(' + e.args.data.type + ')' : ''} ${((e.dur ?? 0) / 1000).toFixed(1)}`,
          )
          .join(' → '),
    );
    console.log(
      `   samples ${within.length}; self: ` +
        [...self]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 10)
          .map(([n, c]) => `${n}=${c}`)
          .join(' ; '),
    );
    console.log(
      `   inclusive: ` +
        [...incl]
          .sort((a, b) => b[1] - a[1])
          .filter(([n]) => !n.startsWith('(root)') && !n.startsWith('(program)'))
          .slice(0, 25)
          .map(([n, c]) => `${n}=${c}`)
          .join(' ; '),
    );
  }
}

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
