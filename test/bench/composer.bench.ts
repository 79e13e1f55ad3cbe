/**
 * A reply streaming into an open session, through the app's real path: a 4,000-token reply at 200
 * tokens a second into the composer under a 30,000-entry session in the reader, at full speed and
 * with the CPU slowed 4× (`Emulation.setCPUThrottlingRate`, after the import). The stream and its
 * probe: composer-stream.ts.
 *
 * Rows: the longest main-thread task while the reply streams (PerformanceObserver 'longtask'), and
 * the time from a token's arrival in the page (the worker's message that carries it, seen before
 * the app's own listener) to the first frame that shows it: every token of the reply ends in its
 * number (`parser17`), the page reads the reply's last number after each frame (a task posted from
 * requestAnimationFrame, after the frame's paint), and a token counts as shown in the first frame
 * whose reply holds its number or a later one. Reported as the 95th percentile, in ms and in
 * frames (1: the first frame after the token came). Then the longest task from the reply's end to
 * its entry read back from disk in the transcript.
 *
 * A row is the median over `--runs` streams (default 1); its note gives every run's figure, so a
 * change can be told from the spread between runs of one build.
 *
 *   npm run bench -- composer [--runs 3]       (sizes: thousands of entries, default 30)
 *   COMPOSER_BENCH_RATES=4                     CPU slowdowns measured (default 1,4)
 *   COMPOSER_BENCH_OUT=dir                     serve another build instead of this checkout's dist/
 *   COMPOSER_BENCH_BASELINE=dir                measure that build too, its runs alternating with
 *                                              this one's (served on PORT + 1): its medians are the rows' baselines
 */
import { chromium } from '@playwright/test';
import { startReplayServer } from '../host/replay-server.ts';
import { chromiumLaunchOptions } from '../tools/browser.ts';
import { attribution, measureStream, p95, PER_SECOND, type StreamFigures, replyTokens } from './composer-stream.ts';
import { type BenchContext, type BenchRow, observedRow } from './harness.ts';
import { servePreview } from './reader-page.ts';

const PORT = Number(process.env.COMPOSER_BENCH_PORT ?? 4204);
const RATES = (process.env.COMPOSER_BENCH_RATES ?? '1,4').split(',').map(Number);
const TOKENS = Number(process.env.COMPOSER_BENCH_TOKENS ?? 4000);
const BASELINE = process.env.COMPOSER_BENCH_BASELINE;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const longest = (tasks: number[]) => Math.max(0, ...tasks);

/** One figure of a stream, by run: its median over the runs, and the runs listed (with their range). */
function overRuns(runs: StreamFigures[], figure: (f: StreamFigures) => number, digits = 0, zero?: string): { value: number; note: string } {
  const values = runs.map(figure);
  const shown = values.map((v) => (v === 0 && zero ? zero : v.toFixed(digits)));
  const note = runs.length > 1 ? `runs ${shown.join(', ')} (range ${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})` : '';
  return { value: median(values), note };
}

/** The rows of one size and rate from the runs of this build (and the baseline build's, when measured). */
function rowsOf(label: string, rate: number, runs: StreamFigures[], base: StreamFigures[] | null): BenchRow[] {
  const phone = rate > 1;
  const beside = (row: BenchRow, figure: (f: StreamFigures) => number, seen: number, digits = 0): BenchRow => {
    // A longest task of 0: none of 50 ms or more in that run.
    const zero = row.name.includes('longest') ? 'none' : undefined;
    const mine = overRuns(runs, figure, digits, zero);
    const theirs = base && overRuns(base, figure, digits, zero);
    const notes = [row.note, mine.note, theirs && `baseline ${theirs.note || theirs.value.toFixed(digits)}`].filter(Boolean);
    const out = { ...row, value: mine.value, ...(theirs ? { baseline: theirs.value } : {}), ...(notes.length ? { note: notes.join('; ') } : {}) };
    return row.unit === 'frames' ? out : observedRow(out, seen);
  };
  const seen = (f: (r: StreamFigures) => number[]) => Math.max(0, ...runs.map((r) => f(r).length));
  const first = runs[0];
  return [
    beside(
      { name: `stream ${label}: longest main-thread task`, value: 0, unit: 'ms', ...(phone ? { target: '< 50 ms' } : {}) },
      (f) => longest(f.longTasks),
      seen((r) => r.longTasks),
    ),
    beside(
      { name: `stream ${label}: main-thread tasks of 50 ms or more`, value: 0, unit: 'tasks' },
      (f) => f.longTasks.length,
      seen((r) => r.longTasks),
    ),
    beside(
      {
        name: `stream ${label}: token arrival → on screen, 95th percentile`,
        value: 0,
        unit: 'frames',
        target: '≤ 1 frame',
        note: `${first.ms.length} tokens timed${first.missing ? `, ${first.missing} not seen in a frame` : ''}; ${first.frameCount} frames; streamed in ${(first.streamedMs / 1000).toFixed(1)} s (first run)`,
      },
      (f) => p95(f.frames),
      1,
    ),
    beside({ name: `stream ${label}: token arrival → on screen, 95th percentile (ms)`, value: 0, unit: 'ms' }, (f) => p95(f.ms), 1, 1),
    beside(
      { name: `stream ${label}: longest task from the reply's end to the page at rest (turn written and read back)`, value: 0, unit: 'ms' },
      (f) => longest(f.endTasks),
      seen((r) => r.endTasks),
    ),
  ].map((row) => {
    // The targets hold for the median.
    if (row.target === '< 50 ms') return { ...row, ok: Number.isNaN(row.value) || row.value < 50 };
    if (row.target === '≤ 1 frame') return { ...row, ok: row.value <= 1 };
    return row;
  });
}

export default {
  name: 'composer',
  description: 'A 4,000-token reply streamed at 200 tokens/s into an open 30,000-entry session: longest task, token arrival → on screen',
  defaultSizes: [30],
  async run(ctx: BenchContext) {
    const stop = await servePreview(PORT, { outDir: process.env.COMPOSER_BENCH_OUT, log: (m) => ctx.log(`composer bench: ${m}`) });
    const stopBase = BASELINE ? await servePreview(PORT + 1, { outDir: BASELINE }) : () => undefined;
    const server = await startReplayServer();
    const browser = await chromium.launch(chromiumLaunchOptions());
    const tokens = replyTokens(TOKENS);
    const count = ctx.runs ?? 1;
    try {
      for (const thousands of ctx.sizes ?? [30])
        for (const rate of RATES) {
          const entries = Math.round(thousands * 1000);
          const label = `${TOKENS} tokens at ${PER_SECOND}/s into ${entries / 1000}k entries${rate === 1 ? '' : `, ${rate}× CPU`}`;
          const runs: StreamFigures[] = [];
          const base: StreamFigures[] = [];
          for (let run = 0; run < count; run++) {
            // Alternating which build goes first, so a change of load falls on both alike.
            const order = BASELINE && run % 2 === 0 ? ['base', 'this'] : ['this', 'base'];
            for (const which of order) {
              if (which === 'base' && !BASELINE) continue;
              ctx.log(`composer bench: ${label}, run ${run + 1}/${count}${BASELINE ? ` (${which === 'base' ? 'baseline' : 'this build'})` : ''}`);
              const figures = await measureStream(browser, server, { port: which === 'base' ? PORT + 1 : PORT, entries, rate, tokens });
              (which === 'base' ? base : runs).push(figures);
              ctx.log(`  longest task ${longest(figures.longTasks).toFixed(0)} ms, ${figures.longTasks.length} of 50 ms or more`);
              ctx.log(`  frames of 50 ms or more: ${figures.longFrames.length}; by what took most of each: ${attribution(figures.longFrames) || 'none'}`);
            }
          }
          for (const row of rowsOf(label, rate, runs, BASELINE ? base : null)) ctx.row(row);
        }
    } finally {
      await browser.close();
      await server.close();
      stopBase();
      stop();
    }
  },
};
