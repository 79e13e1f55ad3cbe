/**
 * The reader in Chromium: time from choosing a session to its last message on screen, for 1k /
 * 10k / 30k entries, beside the time to read the file's bytes from OPFS; and the longest
 * main-thread task while scrolling (PerformanceObserver 'longtask').
 *
 * Serves the production build (built first when dist/ is missing) on port 4202, imports each
 * generated session through the app's file picker, then opens it by its deep link. Every figure is
 * measured twice, in fresh browser contexts: at full speed and with the CPU slowed 4× through the
 * DevTools protocol (`Emulation.setCPUThrottlingRate`, a phone's speed; the import runs unthrottled).
 * Sizes: `npm run bench -- reader --sizes 1,10,30` (thousands of entries). READER_BENCH_OUT=dir serves
 * another build (e.g. main's) instead of this checkout's; READER_BENCH_BASELINE=dir measures that
 * build too, in the same run, each of its figures right before this one's (in a browser context of
 * its own), and gives it as every row's baseline.
 */
import { statSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { chromium, type Page } from '@playwright/test';
import { chromiumLaunchOptions } from '../tools/browser.ts';
import { type BenchRow, observedRow } from './harness.ts';
import { ensureReaderSession } from './reader-fixture.ts';
import { importReaderSession, servePreview } from './reader-page.ts';

const PORT = Number(process.env.READER_BENCH_PORT ?? 4202);
/** Another build measured beside this one (its rows' values become the baselines), served on PORT + 1. */
const BASELINE = process.env.READER_BENCH_BASELINE;
/** CPU slowdowns measured: a laptop, and a phone-class CPU (4×). */
const RATES = (process.env.READER_BENCH_RATES ?? '1,4').split(',').map(Number);

interface Context {
  sizes: number[] | null;
  runs: number | null;
  row(row: BenchRow): void;
  log(message: string): void;
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
async function openToLastMs(page: Page, id: string): Promise<{ total: number; firstRow: number; longTask: number; longTasks: number }> {
  return page.evaluate(async (id) => {
    let firstRow = 0;
    let longTask = 0;
    let longTasks = 0;
    const observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        longTask = Math.max(longTask, e.duration);
        longTasks++;
      }
    });
    observer.observe({ type: 'longtask', buffered: false });
    const t0 = performance.now();
    location.hash = `#/s/${encodeURIComponent(id)}`;
    for (;;) {
      await new Promise((r) => requestAnimationFrame(r));
      const any = document.querySelector('.vl-row');
      if (!firstRow && document.querySelector('.rd-row')) firstRow = performance.now() - t0;
      const count = Number(any?.getAttribute('aria-setsize') ?? 0);
      const last = count ? document.querySelector(`.vl-row[data-index="${count - 1}"]`) : null;
      const scroller = document.querySelector('.vl');
      if (last && scroller && last.querySelector('.rd-row')) {
        const box = last.getBoundingClientRect();
        const view = scroller.getBoundingClientRect();
        if (box.top < view.bottom && box.bottom <= view.bottom + 2) {
          const total = performance.now() - t0;
          // Long tasks are reported after they end: give the observer a moment.
          await new Promise((r) => setTimeout(r, 50));
          observer.disconnect();
          return { total, firstRow, longTask, longTasks };
        }
      }
      if (performance.now() - t0 > 120_000) throw new Error('last message never came on screen');
    }
  }, id);
}

/**
 * Scrolls up fast, jumps to the middle and scrolls on; returns the longest long task, how many
 * there were (50 ms and over), the longest frame and the 95th-percentile frame. Plain JS source: the bench runs under tsx, whose helpers (__name) do not exist in the page.
 */
const scrollScript = (up: number, down: number) => `(async () => {
  let longTask = 0;
  let longTasks = 0;
  const observer = new PerformanceObserver((list) => { for (const e of list.getEntries()) { longTask = Math.max(longTask, e.duration); longTasks++; } });
  observer.observe({ type: 'longtask', buffered: false });
  const el = document.querySelector('.vl');
  let longFrame = 0;
  const frames = [];
  let last = performance.now();
  for (let i = 0; i < 240; i++) {
    if (i === 120) el.scrollTop = el.scrollHeight / 2;
    else el.scrollTop += i < 120 ? -${up} : ${down};
    await new Promise((r) => requestAnimationFrame(r));
    const now = performance.now();
    longFrame = Math.max(longFrame, now - last);
    frames.push(now - last);
    last = now;
  }
  await new Promise((r) => setTimeout(r, 300));
  observer.disconnect();
  frames.sort((a, b) => a - b);
  return { longTask, longTasks, longFrame, p95Frame: frames[Math.floor(frames.length * 0.95)] };
})()`;

interface ScrollResult {
  longTask: number;
  longTasks: number;
  longFrame: number;
  p95Frame: number;
}

/** The bench's fling (1500 px a frame up, 1200 down) or, slower, a scroll a reader could follow. */
async function scrollLongestTask(page: Page, up = 1500, down = 1200): Promise<ScrollResult> {
  return page.evaluate(scrollScript(up, down)) as Promise<ScrollResult>;
}

/** Opens the imported session to its last message, then scrolls it, reporting every figure under `label`. */
async function measure(ctx: Context, page: Page, o: { id: string; label: string; entries: number; bytesMs: number | null; phone: boolean }) {
  const { id, label, entries, bytesMs, phone } = o;
  const { total: openMs, firstRow, longTask: openTask, longTasks: openTasks } = await openToLastMs(page, id);
  // Targets are times here: the row compares its value (the bytes' time stays as a baseline, without a ratio).
  const timed = entries >= 30_000 || phone;
  ctx.row({
    name: `reader open ${label}: choose → last message on screen`,
    value: openMs,
    unit: 'ms',
    ...(bytesMs === null
      ? { note: 'stored file not found in OPFS for the bytes baseline' }
      : timed
        ? { baseline: bytesMs }
        : { baseline: bytesMs, ratio: openMs / bytesMs }),
    ...(timed ? { target: '< 1000 ms', ok: openMs < 1000 } : {}),
  });
  ctx.row({ name: `reader open ${label}: choose → first message rendered`, value: firstRow, unit: 'ms' });
  ctx.row(
    observedRow(
      {
        name: `reader open ${label}: longest main-thread task until the last message is on screen`,
        value: openTask,
        unit: 'ms',
        ...(phone ? { target: '< 50 ms', ok: openTask < 50 } : {}),
      },
      openTasks,
    ),
  );
  if (bytesMs !== null) ctx.row({ name: `read the file bytes from OPFS, ${label}`, value: bytesMs, unit: 'ms' });
  const { longTask, longTasks, longFrame, p95Frame } = await scrollLongestTask(page);
  ctx.row(
    observedRow({ name: `reader scroll ${label}: longest main-thread task`, value: longTask, unit: 'ms', target: '< 50 ms', ok: longTask < 50 }, longTasks),
  );
  ctx.row(observedRow({ name: `reader scroll ${label}: main-thread tasks of 50 ms or more`, value: longTasks, unit: 'tasks' }, longTasks));
  ctx.row({ name: `reader scroll ${label}: longest frame`, value: longFrame, unit: 'ms' });
  ctx.row({ name: `reader scroll ${label}: 95th-percentile frame`, value: p95Frame, unit: 'ms' });
  // 250 px a frame: slow enough that every frame renders real rows (no fling skeletons).
  const slow = await scrollLongestTask(page, 250, 250);
  ctx.row(
    observedRow(
      { name: `reader scroll ${label}, 250 px a frame: longest main-thread task`, value: slow.longTask, unit: 'ms', target: '< 50 ms', ok: slow.longTask < 50 },
      slow.longTasks,
    ),
  );
  ctx.row({ name: `reader scroll ${label}, 250 px a frame: 95th-percentile frame`, value: slow.p95Frame, unit: 'ms' });
}

export default {
  name: 'reader',
  description: 'Reader in Chromium: choose → last message on screen (1k/10k/30k entries) vs reading the bytes; longest task while scrolling',
  defaultSizes: [1, 10, 30],
  async run(ctx: Context) {
    const stop = await servePreview(PORT, { outDir: process.env.READER_BENCH_OUT, log: (m) => ctx.log(`reader bench: ${m}`) });
    const stopBase = BASELINE ? await servePreview(PORT + 1, { outDir: BASELINE }) : () => undefined;
    const browser = await chromium.launch(chromiumLaunchOptions());
    /** One build's figures for a size and a rate, in a fresh context: the session imported, then opened and scrolled throttled. */
    const measureBuild = async (port: number, emit: Context['row'], o: { entries: number; rate: number; label: string; size: number }) => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      const id = await importReaderSession(page, port, o.entries);
      const bytesMs = await readBytesMs(page, o.size);
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: o.rate });
      await measure({ ...ctx, row: (r) => emit(withLoad(r)) }, page, { id, label: o.label, entries: o.entries, bytesMs, phone: o.rate > 1 });
      await context.close();
    };
    try {
      for (const thousands of ctx.sizes ?? [1, 10, 30])
        for (const rate of RATES) {
          const entries = Math.round(thousands * 1000);
          const path = ensureReaderSession(entries);
          const size = statSync(path).size;
          const label = `${entries / 1000}k entries (${(size / 1e6).toFixed(0)} MB)${rate === 1 ? '' : `, ${rate}× CPU`}`;
          ctx.log(`reader bench: ${label}`);
          const base = new Map<string, BenchRow>();
          if (BASELINE) await measureBuild(PORT + 1, (r) => base.set(r.name, r), { entries, rate, label, size });
          await measureBuild(PORT, BASELINE ? (r) => ctx.row(besideBaseline(r, base.get(r.name))) : ctx.row, { entries, rate, label, size });
        }
    } finally {
      await browser.close();
      stop();
      stopBase();
    }
  },
};

/**
 * A long-task row with the machine's load beside it: wall-time tasks grow with other processes'
 * load (on 2 busy cores, the same scroll's longest task goes from under 50 ms to 100-300 ms), so a
 * row is read against the load it was measured under (the 1-minute average when the row is taken,
 * which covers the measurement and includes the bench's own browser).
 */
function withLoad(row: BenchRow): BenchRow {
  if (!row.name.includes('main-thread task')) return row;
  const load = `1-min load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores`;
  return { ...row, note: row.note ? `${row.note}; ${load}` : load };
}

/** A row with the baseline build's figure for it as its baseline (a time target has no ratio; "none observed" is said in a note). */
function besideBaseline(row: BenchRow, base: BenchRow | undefined): BenchRow {
  const { ratio: _ratio, baseline: _bytes, ...rest } = row;
  if (!base) return { ...rest, note: 'no baseline figure' };
  const baseNote = base.none ? `baseline: ${base.none}` : undefined;
  const note = [row.note, baseNote].filter(Boolean).join('; ') || undefined;
  return { ...rest, baseline: Number.isNaN(base.value) ? undefined : base.value, ...(note ? { note } : {}) };
}
