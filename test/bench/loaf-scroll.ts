/**
 * A diagnostic, not a bench: the reader bench's scroll at a reader's pace (250 px a frame by
 * default), watched through Long Animation Frames, no tracing: each long frame with its scripts
 * (what invoked each, how long, the style and layout each forced) and its rendering steps.
 *
 *   npx vite build && THROTTLE=4 npx tsx test/bench/loaf-scroll.ts 10
 *   PROFILE_PORT=4322; PROFILE_OUT=dir: serve another build (e.g. main's); PX=250: pixels a frame;
 *   DRIVE=bench (the bench's `scrollTop +=` in a frame callback: a read that lays the page out, then
 *   a write) or DRIVE=wheel (CDP `Input.synthesizeScrollGesture` with a mouse wheel, as a user's
 *   scroll: no script touches the scroller; its speed is PX × 60 px/s); ROUNDS=n: passes;
 *   TRACE=1: also trace the pass (timeline events only) and print the main thread's longest tasks
 *   by thread time (throttling included: on a quiet machine a task's thread time and wall time
 *   agree), which other processes' load changes far less than wall time, and the tasks by kind
 *   (frames, worker replies, tasks the page posted itself, timers); TOP_TASKS=n: what the n longest
 *   did (KIND='worker reply': of that kind only); CPU=1: a CPU profile of the pass (functions, self and inclusive ms);
 *   FLING=1: as the reader bench, each pass after its fling (1500 px a frame up, 1200 down), from
 *   where that left the list, rather than from the bottom. MEASURE_MIN=ms: the diagnostic build's
 *   measures of that length and over (25).
 */
import type { Page } from '@playwright/test';
import { type Profile, printProfile } from './cpu-profile.ts';
import { openReaderSession, servePreview } from './reader-page.ts';
import type { TraceEvent } from './trace-tasks.ts';

const PORT = Number(process.env.PROFILE_PORT ?? 4322);
const thousands = Number(process.argv[2] ?? 10);
const PX = Number(process.env.PX ?? 250);
const DRIVE = process.env.DRIVE ?? 'bench';
const ROUNDS = Number(process.env.ROUNDS ?? 1);

/** Starts watching long animation frames and long tasks in the page. */
const WATCH = `(() => {
  window.__loaf = []; window.__tasks = [];
  window.__obs = [new PerformanceObserver((l) => window.__loaf.push(...l.getEntries().map((e) => e.toJSON()))),
    new PerformanceObserver((l) => window.__tasks.push(...l.getEntries().map((e) => e.duration)))];
  window.__obs[0].observe({ type: 'long-animation-frame', buffered: false });
  window.__obs[1].observe({ type: 'longtask', buffered: false });
  // Markdown as each row came in: already HTML (laid out once) or plain text waiting for its swap.
  window.__md = { html: 0, pending: 0, swapped: 0 };
  document.addEventListener('rd-markdown', () => window.__md.swapped++);
  const mo = new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) if (n.nodeType === 1) for (const md of n.querySelectorAll('.md')) {
      if (md.dataset.md === 'html') window.__md.html++; else if (md.dataset.md === 'pending') window.__md.pending++;
    }
  });
  mo.observe(document.querySelector('.vl'), { childList: true, subtree: true });
  window.__obs.push(mo);
})()`;

/** The bench's own scroll: up 120 frames, a jump to the middle, down 120 frames. */
const BENCH = (up: number, down = up) => `(async () => {
  const el = document.querySelector('.vl');
  for (let i = 0; i < 240; i++) {
    if (i === 120) el.scrollTop = el.scrollHeight / 2;
    else el.scrollTop += i < 120 ? -${up} : ${down};
    await new Promise((r) => requestAnimationFrame(r));
  }
})()`;

async function drive(page: Page) {
  if (DRIVE === 'bench') return page.evaluate(BENCH(PX));
  if (DRIVE === 'wheel') return wheel(page);
}

/** A user's wheel scroll through CDP: no script touches the scroller. */
async function wheel(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  const speed = PX * 60;
  const gesture = (yDistance: number) =>
    cdp.send('Input.synthesizeScrollGesture', { x: 640, y: 500, yDistance, speed, gestureSourceType: 'mouse', preventFling: true });
  // Up 120 frames' worth, a jump to the middle, down 120 frames' worth (as the bench).
  await gesture(120 * PX);
  await page.evaluate(() => {
    const el = document.querySelector('.vl')!;
    el.scrollTop = el.scrollHeight / 2;
  });
  await page.waitForTimeout(300);
  await gesture(-120 * PX);
}

/**
 * What kind each task was (a frame, a worker's reply, a task the page posted to itself through a
 * MessageChannel, a timer, an idle callback): per kind, how many, the longest and the 90th
 * percentile by thread time, and the style and layout they held (ms, all of them together).
 */
function printKinds(tasks: TraceEvent[], all: TraceEvent[]): Map<TraceEvent, string> {
  const events = all.filter((e) => e.name !== 'RunTask').sort((a, b) => a.ts - b.ts);
  const by = new Map<string, { n: number; tdur: number[]; style: number; big: number }>();
  const kinds = new Map<TraceEvent, string>();
  let k = 0;
  for (const task of [...tasks].sort((a, b) => a.ts - b.ts)) {
    const end = task.ts + (task.dur ?? 0);
    while (k < events.length && events[k].ts < task.ts) k++;
    const seen = new Set<string>();
    let first = '';
    let big = 0;
    let style = 0;
    for (let j = k; j < events.length && events[j].ts <= end; j++) {
      const e = events[j];
      seen.add(e.name === 'FunctionCall' && /\/worker-[^/]*\.js/.test(String(e.args?.data?.url)) ? 'worker' : e.name);
      first ||= e.name;
      if (e.name === 'Layout' || e.name === 'UpdateLayoutTree') style += e.tdur ?? 0;
      if (e.name === 'Layout' && ((e.args as { beginData?: { dirtyObjects?: number } })?.beginData?.dirtyObjects ?? 0) > 20) big++;
    }
    // A MessageChannel task the page posted itself (the list's slices, its draw-ahead) starts with its script.
    const kind = ['Paint', 'PrePaint', 'Commit'].some((n) => seen.has(n))
      ? 'frame'
      : seen.has('worker') || seen.has('HandlePostMessage')
        ? 'worker reply'
        : seen.has('TimerFire')
          ? 'timer'
          : seen.has('FireIdleCallback')
            ? 'idle'
            : first === 'FunctionCall'
              ? 'posted task'
              : 'other';
    kinds.set(task, kind);
    const s = by.get(kind) ?? { n: 0, tdur: [], style: 0, big: 0 };
    s.n++;
    s.tdur.push(task.tdur ?? 0);
    s.style += style;
    s.big += big;
    by.set(kind, s);
  }
  const ms = (us = 0) => (us / 1000).toFixed(1);
  for (const [kind, s] of by) {
    s.tdur.sort((a, b) => b - a);
    console.log(
      `  ${kind}: ${s.n}, longest ${ms(s.tdur[0])}, 90th pct ${ms(s.tdur[Math.floor(s.n * 0.1)])}, ≥ 25 ms ${s.tdur.filter((t) => t >= 25_000).length}, thread ${ms(s.tdur.reduce((a, b) => a + b, 0))} (style+layout ${ms(s.style)}, layouts of over 20 objects ${s.big})`,
    );
  }
  return kinds;
}

/** TRACE=1: the renderer main thread's longest tasks by thread time (and their wall time), and how many took 12.5 ms or more. */
function printTasks(json: { traceEvents?: TraceEvent[] } | TraceEvent[]) {
  const events = Array.isArray(json) ? json : (json.traceEvents ?? []);
  const mains = events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  let best: TraceEvent[] = [];
  let mine: TraceEvent[] = [];
  for (const m of mains) {
    const all = events.filter((e) => e.pid === m.pid && e.tid === m.tid && e.ph === 'X');
    const tasks = all.filter((e) => e.name === 'RunTask');
    if (tasks.length > best.length) [best, mine] = [tasks, all];
  }
  const kinds = printKinds(best, mine);
  const byThread = best.sort((a, b) => (b.tdur ?? 0) - (a.tdur ?? 0));
  const ms = (us = 0) => (us / 1000).toFixed(1);
  console.log(
    `tasks ${best.length}; thread time ≥ 12.5 ms: ${best.filter((t) => (t.tdur ?? 0) >= 12_500).length}; longest by thread time (wall): ${byThread
      .slice(0, 8)
      .map((t) => `${ms(t.tdur)} (${ms(t.dur)})`)
      .join(', ')}; ≥ 50 ms: ${best.filter((t) => (t.tdur ?? 0) >= 50_000).length}; total thread time ${ms(best.reduce((s, t) => s + (t.tdur ?? 0), 0))} ms`,
  );
  // What the longest ones (of a KIND, e.g. KIND='worker reply') did: their events' thread time by name (nested events count in each).
  const kind = process.env.KIND;
  for (const task of byThread.filter((t) => !kind || kinds.get(t) === kind).slice(0, Number(process.env.TOP_TASKS ?? 0))) {
    const end = task.ts + (task.dur ?? 0);
    const by = new Map<string, number>();
    for (const e of mine) if (e !== task && e.ts >= task.ts && e.ts <= end) by.set(e.name, (by.get(e.name) ?? 0) + (e.tdur ?? 0));
    const top = [...by].sort((a, b) => b[1] - a[1]).slice(0, 9);
    console.log(`  ${ms(task.tdur)} (${kinds.get(task)}): ${top.map(([n, d]) => `${n} ${ms(d)}`).join(' | ')}`);
    const calls = mine.filter((e) => e.name === 'FunctionCall' && e.ts >= task.ts && e.ts <= end && (e.tdur ?? 0) > 1000);
    const where = (e: TraceEvent) =>
      `${e.args?.data?.functionName || '(anon)'}@${String(e.args?.data?.url ?? '')
        .split('/')
        .pop()}:${e.args?.data?.lineNumber}:${e.args?.data?.columnNumber}`;
    if (calls.length) console.log(`    calls: ${calls.map((e) => `${where(e)} ${ms(e.tdur)}`).join(' ; ')}`);
    // Style recalcs (elements restyled) and layouts (objects dirty of all) inside the task.
    const work = mine.filter((e) => (e.name === 'UpdateLayoutTree' || e.name === 'Layout') && e.ts >= task.ts && e.ts <= end && (e.tdur ?? 0) > 500);
    const size = (e: TraceEvent) => {
      const a = e.args as { elementCount?: number; beginData?: { dirtyObjects?: number; totalObjects?: number } } | undefined;
      return e.name === 'Layout' ? `${a?.beginData?.dirtyObjects}/${a?.beginData?.totalObjects} objects` : `${a?.elementCount} elements`;
    };
    if (work.length) console.log(`    style/layout: ${work.map((e) => `${e.name} ${ms(e.tdur)} (${size(e)})`).join(' ; ')}`);
  }
}

async function main() {
  const stop = await servePreview(PORT, { outDir: process.env.PROFILE_OUT });
  try {
    const { page, context, close } = await openReaderSession(PORT, thousands * 1000, 1500);
    if (process.env.THROTTLE) await (await context.newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: Number(process.env.THROTTLE) });
    for (let round = 0; round < ROUNDS; round++) {
      if (process.env.FLING) await page.evaluate(BENCH(1500, 1200));
      else
        await page.evaluate(() => {
          const el = document.querySelector('.vl')!;
          el.scrollTop = el.scrollHeight;
        });
      await page.waitForTimeout(process.env.FLING ? 300 : 500);
      await page.evaluate(WATCH);
      const cdp = process.env.CPU ? await context.newCDPSession(page) : null;
      if (cdp) {
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 250 });
        await cdp.send('Profiler.start');
      }
      const browser = page.context().browser()!;
      if (process.env.TRACE) await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
      await drive(page);
      if (process.env.TRACE) printTasks(JSON.parse((await browser.stopTracing()).toString('utf8')));
      if (cdp) printProfile(((await cdp.send('Profiler.stop')) as { profile: Profile }).profile);
      await page.waitForTimeout(300);
      const { frames, tasks, md } = (await page.evaluate(() => {
        const w = window as unknown as { __loaf: Array<Record<string, any>>; __tasks: number[]; __obs: PerformanceObserver[] };
        for (const o of w.__obs) o.disconnect();
        return { frames: w.__loaf, tasks: w.__tasks, md: (w as unknown as { __md: unknown }).__md };
      })) as { frames: Array<Record<string, any>>; tasks: number[]; md: { html: number; pending: number; swapped: number } };
      console.log(`markdown as rows came in: ${md.html} already HTML, ${md.pending} plain waiting for it; ${md.swapped} swapped in`);
      const long = tasks.filter((t) => t >= 50);
      // Measures a diagnostic build may add (performance.measure around its own tasks), 25 ms and over.
      const measures = (await page.evaluate(
        `performance.getEntriesByType('measure').filter((m) => m.duration >= ${Number(process.env.MEASURE_MIN ?? 25)}).map((m) => m.name + ' ' + Math.round(m.duration))`,
      )) as string[];
      await page.evaluate('performance.clearMeasures()');
      if (measures.length) console.log(`measures ≥ 25 ms: ${measures.join(', ')}`);
      console.log(
        `\n=== ${DRIVE} ${PX} px a frame, round ${round + 1}: longest task ${Math.max(0, ...tasks).toFixed(0)} ms, tasks ≥ 50 ms: ${long.length}; long frames ${frames.length}`,
      );
      for (const f of frames.sort((a, b) => b.duration - a.duration).slice(0, Number(process.env.TOP ?? 6))) {
        const end = f.startTime + f.duration;
        const render = f.renderStart ? end - f.renderStart : 0;
        const styleLayout = f.styleAndLayoutStart ? end - f.styleAndLayoutStart : 0;
        console.log(
          `frame ${f.duration.toFixed(0)} ms (blocking ${f.blockingDuration.toFixed(0)}): before rendering ${(f.duration - render).toFixed(0)}, rendering ${render.toFixed(0)} (rAF etc. ${(render - styleLayout).toFixed(0)}, style+layout+RO+paint ${styleLayout.toFixed(0)})`,
        );
        for (const s of f.scripts)
          console.log(
            `   ${s.invokerType} ${s.invoker} ${s.sourceFunctionName}@${String(s.sourceURL).split('/').pop()}:${s.sourceCharPosition}: ${s.duration.toFixed(0)} ms, forced style+layout ${s.forcedStyleAndLayoutDuration.toFixed(0)}`,
          );
      }
    }
    await close();
  } finally {
    stop();
  }
}

await main();
