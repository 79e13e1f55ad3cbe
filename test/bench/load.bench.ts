/**
 * Load (reported, not asserted): import 1,000 sessions totalling 500 MB in one call in
 * Chromium through the real worker into OPFS; memory (peak RSS of Chromium's processes, sampled
 * from /proc, and the page's JS heap) and the main thread's responsiveness (longest task, largest
 * gap between 10 ms timer ticks) meanwhile; then the full-size big bad-input cases (a 50 MB single
 * line, 200,000 entries in one chain, 100,000 levels of nesting) through the import and the core.
 *
 * `npm run bench -- load [--sizes 500]` (size: total MB of the 1,000 sessions). Serves the repo with
 * vite on port 4222 (LOAD_BENCH_PORT overrides). Side by side with another build:
 * `BENCH_BASELINE=<its checkout> npm run bench -- load [--runs 2]` serves that checkout on the next
 * port and runs its own load page (same `loadBench`) in rounds alternating with this build's; the
 * rows give the median of each build's rounds, the ratio, and every round in the note.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from '@playwright/test';
import { createServer } from 'vite';
import { benchOptimizeDeps } from './source-server.ts';
import { indexEnvelopes, parse } from '../../src/core/index.ts';
import { bytesOf, deepNesting, FULL_SIZES, hugeLine, longChain } from '../core/read/bad-input-big.ts';
import { chromiumLaunchOptions } from '../tools/browser.ts';
import { type BenchContext, type BenchSuite, observedRow } from './harness.ts';

const root = resolve(fileURLToPath(import.meta.url), '../../..');

/** RSS (bytes) of the Chromium processes among a process's descendants, read from /proc; and the largest single one. */
export function treeRss(pid: number): { total: number; largest: number } {
  const children = new Map<number, number[]>();
  const rss = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ppid = Number(fields[1]);
      const pages = Number(fields[21]);
      const p = Number(name);
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      rss.set(p, /chrom/i.test(comm) ? pages * 4096 : 0);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid)!.push(p);
    } catch {
      // The process ended meanwhile.
    }
  }
  let total = 0;
  let largest = 0;
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop()!;
    const r = rss.get(p) ?? 0;
    total += r;
    largest = Math.max(largest, r);
    stack.push(...(children.get(p) ?? []));
  }
  return { total, largest };
}

/** One build's checkout served by vite, loaded in Chromium (a profile on disk), its load page run once. */
async function runBuild(
  root: string,
  port: number,
  args: string,
): Promise<{ r: Record<string, number>; peak: { total: number; largest: number }; base: { total: number; largest: number } }> {
  const server = await createServer({
    root,
    configFile: resolve(root, 'vite.config.ts'),
    logLevel: 'warn',
    // No reload mid-run: not on a file change, nor on a dependency found late (benchOptimizeDeps).
    server: { port, strictPort: true, hmr: false, watch: null },
    optimizeDeps: benchOptimizeDeps,
  });
  await server.listen();
  // A profile on disk: in an incognito context OPFS lives in memory, and the stored 500 MB would
  // count as the import's memory.
  const profile = mkdtempSync(resolve(tmpdir(), 'rho-load-'));
  const browser = await chromium.launchPersistentContext(profile, chromiumLaunchOptions());
  // Playwright starts Chromium from this process: its processes are our descendants.
  const pid = process.pid;
  try {
    const page = await browser.newPage();
    await page.goto(`http://localhost:${port}/__load_bench__`);
    let peak = { total: 0, largest: 0 };
    const base = treeRss(pid);
    const sampler = setInterval(() => {
      const now = treeRss(pid);
      peak = { total: Math.max(peak.total, now.total), largest: Math.max(peak.largest, now.largest) };
    }, 250);
    const r = (await page.evaluate(`import('/test/bench/load-page.ts').then((m) => m.loadBench(${args}))`)) as Record<string, number>;
    clearInterval(sampler);
    return { r, peak, base };
  } finally {
    await browser.close();
    await server.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

async function run(ctx: BenchContext): Promise<void> {
  const totalMb = ctx.sizes?.[0] ?? 500;
  const port = Number(process.env.LOAD_BENCH_PORT ?? 4222);
  // Another build's checkout (BENCH_BASELINE=<dir>, e.g. a worktree of an earlier commit): its
  // import runs in the same process and browser build, rounds alternating with this one's.
  const baseRoot = process.env.BENCH_BASELINE ? resolve(process.env.BENCH_BASELINE) : null;
  const rounds = baseRoot ? (ctx.runs ?? 2) : 1;
  const mb = (b: number) => b / 1048576;
  const baseCore = baseRoot ? ((await import(pathToFileURL(resolve(baseRoot, 'src/core/index.ts')).href)) as { parse: typeof parse }) : null;

  // The core alone on the full-size big cases (Node, this process).
  for (const c of [hugeLine(FULL_SIZES.lineMb), longChain(FULL_SIZES.chain), deepNesting(FULL_SIZES.depth)]) {
    const bytes = bytesOf(c);
    const t0 = performance.now();
    const s = parse(bytes);
    const tParse = performance.now() - t0;
    const t1 = performance.now();
    indexEnvelopes(bytes);
    const tIndex = performance.now() - t1;
    let baseline: number | undefined;
    if (baseCore) {
      const b0 = performance.now();
      baseCore.parse(bytes);
      baseline = performance.now() - b0;
    }
    ctx.row({
      name: `load: core parse of ${c.name} (${mb(c.size).toFixed(1)} MB)`,
      value: tParse,
      unit: 'ms',
      ...(baseline !== undefined ? { baseline, ratio: tParse / baseline } : {}),
      note: s.entries.length === c.entries ? undefined : 'ENTRIES MISSING',
    });
    ctx.row({ name: `load: core envelope index of ${c.name}`, value: tIndex, unit: 'ms' });
  }

  const args = JSON.stringify({ totalMb, sessions: 1000, big: FULL_SIZES });
  const mine: Array<Awaited<ReturnType<typeof runBuild>>> = [];
  const theirs: Array<Record<string, number>> = [];
  for (let round = 0; round < rounds; round++) {
    // Alternating which build goes first, so neither always meets the machine fresher.
    const order = round % 2 === 0 && baseRoot ? ['base', 'this'] : ['this', 'base'];
    for (const which of order) {
      if (which === 'base') {
        if (!baseRoot) continue;
        ctx.log(`round ${round + 1}: the baseline build (${baseRoot}): 1,000 sessions totalling ${totalMb} MB in one call, then the big cases…`);
        theirs.push((await runBuild(baseRoot, port + 1, args)).r);
      } else {
        ctx.log(`round ${round + 1}: this build: 1,000 sessions totalling ${totalMb} MB in one call, then the full-size big cases…`);
        mine.push(await runBuild(root, port, args));
      }
    }
  }
  // The median round of each build (with two rounds: their mean).
  const mid = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  const pick = (rs: Array<Record<string, number>>, key: string) => mid(rs.map((r) => r[key]));
  const compared = (key: string) => {
    if (!theirs.length) return {};
    const baseline = pick(theirs, key);
    return {
      baseline,
      ratio:
        pick(
          mine.map((m) => m.r),
          key,
        ) / baseline,
    };
  };
  const spread = (key: string) => {
    const fmtS = (rs: Array<Record<string, number>>) => rs.map((r) => (r[key] / 1000).toFixed(1)).join(', ');
    return theirs.length ? `; rounds: this ${fmtS(mine.map((m) => m.r))} s, baseline ${fmtS(theirs)} s` : '';
  };
  const r = mine[0].r;
  const importMs = pick(
    mine.map((m) => m.r),
    'importMs',
  );
  ctx.row({
    name: `load: import 1,000 sessions, ${mb(r.bytes).toFixed(0)} MB, one call`,
    value: importMs,
    unit: 'ms',
    ...compared('importMs'),
    ...(theirs.length ? { target: '≤ 1.3×', ok: importMs / pick(theirs, 'importMs') <= 1.3 } : {}),
    note: `${r.added} added, ${r.listed} listed; ${(mb(r.bytes) / (importMs / 1000)).toFixed(1)} MB/s; ${r.progressMessages} progress messages${spread('importMs')}`,
  });
  ctx.row({
    name: 'load: list the 1,000 afterwards',
    value: pick(
      mine.map((m) => m.r),
      'listMs',
    ),
    unit: 'ms',
    ...compared('listMs'),
  });
  ctx.row(
    observedRow(
      {
        name: 'load: longest main-thread task during the import',
        value: r.longestTask,
        unit: 'ms',
        target: '≤ 50 ms',
        ok: r.longestTask <= 50,
        note: `${r.longTasks} long tasks (50 ms or more)`,
      },
      r.longTasks,
    ),
  );
  ctx.row({ name: 'load: largest gap between 10 ms timer ticks on the main thread', value: r.maxTickGap, unit: 'ms' });
  ctx.row({ name: 'load: peak JS heap of the page', value: mb(r.peakPageHeap), unit: 'MB' });
  const { peak, base } = mine[0];
  ctx.row({
    name: 'load: peak RSS of all Chromium processes (baseline: before the import)',
    value: mb(peak.total),
    unit: 'MB',
    baseline: mb(base.total),
    ratio: peak.total / base.total,
  });
  ctx.row({ name: 'load: peak RSS of the largest Chromium process (renderer + worker)', value: mb(peak.largest), unit: 'MB' });
  for (const key of ['line', 'chain', 'nesting']) {
    const ms = pick(
      mine.map((m) => m.r),
      `${key}Ms`,
    );
    ctx.row({
      name: `load: import the full-size ${key} case (${mb(r[`${key}Bytes`]).toFixed(1)} MB)`,
      value: ms,
      unit: 'ms',
      ...compared(`${key}Ms`),
      // The search and envelope indexes built at import cost at most 1.3× an import without them.
      ...(theirs.length ? { target: '≤ 1.3×', ok: ms / pick(theirs, `${key}Ms`) <= 1.3 } : {}),
      note: `${r[`${key}Ok`] ? 'added, all entries' : 'NOT READ WHOLE'}; largest main-thread tick gap ${r[`${key}MaxTickGap`].toFixed(0)} ms${spread(`${key}Ms`)}`,
    });
  }
}

const suite: BenchSuite = {
  name: 'load',
  description: 'load: 1,000 sessions / 500 MB in one import (Chromium), memory and main-thread responsiveness; full-size big cases',
  defaultSizes: [500],
  run,
};
export default suite;
