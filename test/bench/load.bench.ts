/**
 * Load (reported, not asserted): import 1,000 sessions totalling 500 MB in one call in
 * Chromium through the real worker into OPFS; memory (peak RSS of Chromium's processes, sampled
 * from /proc, and the page's JS heap) and the main thread's responsiveness (longest task, largest
 * gap between 10 ms timer ticks) meanwhile; then the full-size big bad-input cases (a 50 MB single
 * line, 200,000 entries in one chain, 100,000 levels of nesting) through the import and the core.
 *
 * `npm run bench -- load [--sizes 500]` (size: total MB of the 1,000 sessions). Serves the repo with
 * vite on port 4222 (LOAD_BENCH_PORT overrides).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { createServer } from 'vite';
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

async function run(ctx: BenchContext): Promise<void> {
  const totalMb = ctx.sizes?.[0] ?? 500;
  const port = Number(process.env.LOAD_BENCH_PORT ?? 4222);
  const mb = (b: number) => b / 1048576;

  // The core alone on the full-size big cases (Node, this process).
  for (const c of [hugeLine(FULL_SIZES.lineMb), longChain(FULL_SIZES.chain), deepNesting(FULL_SIZES.depth)]) {
    const bytes = bytesOf(c);
    const t0 = performance.now();
    const s = parse(bytes);
    const tParse = performance.now() - t0;
    const t1 = performance.now();
    indexEnvelopes(bytes);
    const tIndex = performance.now() - t1;
    ctx.row({
      name: `load: core parse of ${c.name} (${mb(c.size).toFixed(1)} MB)`,
      value: tParse,
      unit: 'ms',
      note: s.entries.length === c.entries ? undefined : 'ENTRIES MISSING',
    });
    ctx.row({ name: `load: core envelope index of ${c.name}`, value: tIndex, unit: 'ms' });
  }

  const server = await createServer({
    root,
    configFile: resolve(root, 'vite.config.ts'),
    logLevel: 'warn',
    // No reload mid-run: not on a file change, nor on a dependency found late (the worker's minisearch).
    server: { port, strictPort: true, hmr: false, watch: null },
    optimizeDeps: { include: ['fflate', 'idb-keyval', 'zod', 'minisearch'] },
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
    const base = pid ? treeRss(pid) : peak;
    const sampler = setInterval(() => {
      if (!pid) return;
      const now = treeRss(pid);
      peak = { total: Math.max(peak.total, now.total), largest: Math.max(peak.largest, now.largest) };
    }, 250);
    ctx.log(`importing 1,000 sessions totalling ${totalMb} MB in one call, then the full-size big cases…`);
    const args = JSON.stringify({ totalMb, sessions: 1000, big: FULL_SIZES });
    const r = (await page.evaluate(`import('/test/bench/load-page.ts').then((m) => m.loadBench(${args}))`)) as Record<string, number>;
    clearInterval(sampler);
    ctx.row({
      name: `load: import 1,000 sessions, ${mb(r.bytes).toFixed(0)} MB, one call`,
      value: r.importMs,
      unit: 'ms',
      note: `${r.added} added, ${r.listed} listed; ${(mb(r.bytes) / (r.importMs / 1000)).toFixed(1)} MB/s; ${r.progressMessages} progress messages`,
    });
    ctx.row({ name: 'load: list the 1,000 afterwards', value: r.listMs, unit: 'ms' });
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
    if (pid) {
      ctx.row({
        name: 'load: peak RSS of all Chromium processes (baseline: before the import)',
        value: mb(peak.total),
        unit: 'MB',
        baseline: mb(base.total),
        ratio: peak.total / base.total,
      });
      ctx.row({ name: 'load: peak RSS of the largest Chromium process (renderer + worker)', value: mb(peak.largest), unit: 'MB' });
    }
    for (const key of ['line', 'chain', 'nesting']) {
      ctx.row({
        name: `load: import the full-size ${key} case (${mb(r[`${key}Bytes`]).toFixed(1)} MB)`,
        value: r[`${key}Ms`],
        unit: 'ms',
        note: `${r[`${key}Ok`] ? 'added, all entries' : 'NOT READ WHOLE'}; largest main-thread tick gap ${r[`${key}MaxTickGap`].toFixed(0)} ms`,
      });
    }
  } finally {
    await browser.close();
    await server.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

const suite: BenchSuite = {
  name: 'load',
  description: 'load: 1,000 sessions / 500 MB in one import (Chromium), memory and main-thread responsiveness; full-size big cases',
  defaultSizes: [500],
  run,
};
export default suite;
