/**
 * The bench harness's types and tools, shared by run.ts and the suites (`*.bench.ts`).
 * See run.ts for the suite interface and the command line.
 */
import { spawn } from 'node:child_process';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** One figure, as printed and as written by `--json`. */
export interface BenchRow {
  /** What was measured, e.g. "core open 100 MB (parse+branch+context)". */
  name: string;
  value: number;
  /** "ms", "MB/s", "x file size", … */
  unit: string;
  /** The value of the row it is compared with (same unit), measured in the same run. */
  baseline?: number;
  /** value / baseline. */
  ratio?: number;
  /** The goal, as text, e.g. "≤ 1.5× (a)". */
  target?: string;
  /** Whether the target is met (only when the row has a checkable target). */
  ok?: boolean;
  /** Free-form note printed after the row. */
  note?: string;
  /**
   * Set when there was nothing to measure (no long task reported, nothing to count): what the
   * table prints instead of the value. A longest-task row then has no value (NaN, `null` in the
   * JSON); a count keeps its 0.
   */
  none?: string;
}

/** Whether a target is a ratio ("≤ 1.5× (a)", "≤ 3× file"), as opposed to a time, a size or a count. */
export function isRatioTarget(target: string | undefined): boolean {
  return target?.includes('×') === true;
}

/**
 * The row as reported: `ratio` only where the target is a ratio. A row whose target is a time or a
 * size (or that has no target) compares its value and keeps its baseline but carries no ratio that
 * could be mistaken for the target. A ratio target without a ratio is a suite's bug.
 */
export function reportedRow(row: BenchRow): BenchRow {
  if (isRatioTarget(row.target)) {
    if (row.ratio === undefined && !Number.isNaN(row.value)) throw new Error(`bench row "${row.name}" has a ratio target (${row.target}) but no ratio`);
    return row;
  }
  const { ratio: _ratio, ...rest } = row;
  return rest;
}

/**
 * A row for the longest of the events an observer reports (long tasks: 50 ms and over) or for how
 * many there were. `seen` is how many were reported; with none, the row says so (`none`) rather than
 * printing a 0 that reads as a measurement, and a "less than" target is met.
 */
export function observedRow(row: BenchRow, seen: number, none = 'none observed (no task of 50 ms or more)'): BenchRow {
  if (seen > 0) return row;
  const isCount = row.unit === 'tasks';
  return { ...row, value: isCount ? 0 : Number.NaN, none, ...(row.target === undefined ? {} : { ok: true }) };
}

/** What a suite gets. */
export interface BenchContext {
  /** Session sizes to use, in MB (from `--sizes`, or the suite's defaults when not given). */
  sizes: number[] | null;
  /** Timed repetitions per variant (from `--runs`; suites pick a default per size when null). */
  runs: number | null;
  /** Adds a row to the table. */
  row(row: BenchRow): void;
  /** Prints a progress line (stderr, so `--json -` style piping stays clean). */
  log(message: string): void;
}

/** A group of measurements; each `*.bench.ts` default-exports one (or an array of them). */
export interface BenchSuite {
  /** Short name used to select it: `npm run bench -- core`. */
  name: string;
  /** One line shown by `--list`. */
  description: string;
  /** Sizes used when `--sizes` is not given (MB). */
  defaultSizes?: number[];
  run(ctx: BenchContext): Promise<void>;
}

let gcFn: (() => void) | null = null;
/** Full garbage collection between timed runs (V8's gc exposed at runtime; no node flag needed). */
export function gc(): void {
  if (!gcFn) {
    setFlagsFromString('--expose_gc');
    gcFn = runInNewContext('gc') as () => void;
  }
  gcFn();
}

/** Median times of one variant: wall clock and the process's CPU time (user + system). */
export interface Timing {
  wall: number;
  cpu: number;
}

/**
 * Times variants side by side: `runs` rounds, each running every variant once in a rotating
 * order (so drift and warm-up hit all of them alike), after a warm-up round. Returns the median
 * wall and CPU milliseconds per variant. CPU time is what the ratios use: on a shared machine
 * (other processes competing for the cores) it moves far less than wall time.
 */
export async function compare(variants: Record<string, () => unknown>, runs: number, warmup = 1): Promise<Record<string, Timing>> {
  const names = Object.keys(variants);
  const wall: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  const cpu: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let round = -warmup; round < runs; round++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + Math.max(round, 0)) % names.length];
      gc();
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      let result: unknown = variants[name]();
      if (result instanceof Promise) result = await result;
      const t1 = performance.now();
      const c1 = process.cpuUsage(c0);
      if (round >= 0) {
        wall[name].push(t1 - t0);
        cpu[name].push((c1.user + c1.system) / 1000);
      }
      result = null;
    }
  }
  return Object.fromEntries(names.map((n) => [n, { wall: median(wall[n]), cpu: median(cpu[n]) }]));
}

/** The median of a non-empty list. */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Peak memory of one task run in a fresh child process (see mem-child.ts). */
export interface MemoryResult {
  baselineRss: number;
  peakRss: number;
  maxRss: number;
  heapUsed: number;
  external: number;
  ms: number;
}

/**
 * Runs `task` on `file` in a separate `node` process (so no other measurement shares its heap)
 * and returns the peak RSS it reached above the process's own baseline. With `repeat` > 1, runs
 * that many fresh processes and returns the one with the median peak (when V8 collects garbage
 * moves the peak by tens of percent from one process to the next).
 */
export async function measureMemory(task: string, file: string, repeat = 1): Promise<MemoryResult> {
  const results: MemoryResult[] = [];
  for (let i = 0; i < repeat; i++) results.push(await measureMemoryOnce(task, file));
  results.sort((a, b) => a.peakRss - b.peakRss);
  return results[(results.length - 1) >> 1];
}

function measureMemoryOnce(task: string, file: string): Promise<MemoryResult> {
  const child = new URL('./mem-child.ts', import.meta.url).pathname;
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--expose-gc', '--max-old-space-size=8192', '--import', 'tsx', child, task, file], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.on('error', reject);
    p.on('close', (code) => {
      if (code !== 0) return reject(new Error(`memory child ${task} exited with ${code}`));
      try {
        resolve(JSON.parse(out.trim().split('\n').at(-1) ?? ''));
      } catch (e) {
        reject(e);
      }
    });
  });
}

/** A checkable "lower is better" target: ok when ratio (or value) ≤ limit. */
export function atMost(limit: number, label: string): { target: string; check: (x: number) => boolean } {
  return { target: `≤ ${limit}${label}`, check: (x) => x <= limit };
}

/** Formats a number for the table (whole numbers without decimals). */
export function fmt(x: number | undefined, digits = 2): string {
  if (x === undefined || Number.isNaN(x)) return '';
  if (Number.isInteger(x)) return String(x);
  if (Math.abs(x) >= 100) return x.toFixed(0);
  if (Math.abs(x) >= 10) return x.toFixed(1);
  return x.toFixed(digits);
}
