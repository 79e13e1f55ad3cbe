/**
 * Search: the library's index against a full scan of every session (no index), side by side in one run, in Chromium
 * through the real worker into OPFS, on 1,000 generated sessions (test/gen: text, thinking, tool
 * calls and outputs, images, compactions) totalling 500 MB, the load bench's size.
 *   - search as you type: every keystroke of a few queries answered by the index (p50, p95), at 1×
 *     and with the CPU throttled 4× (CDP Emulation.setCPUThrottlingRate); the scan answers each whole query;
 *   - the index on disk against the sessions' bytes;
 *   - import with indexing (the import, then the index brought to the files) against the import alone;
 *   - the tab's memory (RSS of Chromium's processes) while searching, above the library screen's;
 *   - a lost index (its folder deleted) rebuilt, against the import time.
 *
 * `npm run bench -- search [--sizes 500]` (size: total MB of the 1,000 sessions; SEARCH_BENCH_SESSIONS
 * changes the count). Serves the repo with vite on port 4223 (SEARCH_BENCH_PORT overrides);
 * SEARCH_BENCH_ROOT=/another/checkout serves that tree instead (its worker and its page), to compare
 * a build before side by side: `git archive main | tar -x -C /tmp/base`, its node_modules hard-linked.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from '@playwright/test';
import { createServer } from 'vite';
import { benchOptimizeDeps } from './source-server.ts';
import { chromiumLaunchOptions } from '../tools/browser.ts';
import type { BenchContext, BenchSuite } from './harness.ts';
import { treeRss } from './load.bench.ts';

/** Queries as a person types them (every prefix is a keystroke): words, a typo, a filter, nothing, a common word. */
const TYPED = ['compaction summary', 'parseLine buffer', 'sesion stroe', 'tool:bash error', 'zzqqxx nowhere', 'the'];

// Every keystroke typed, in the order typeQueries types them.
const KEYS = TYPED.flatMap((q) => Array.from(q, (_, i) => q.slice(0, i + 1)));
// The slowest keystrokes, with the prefix typed and where they fell in the pass.
const slowest = (times: number[], n = 6) =>
  times
    .map((ms, i) => ({ ms, i }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, n)
    .map(({ ms, i }) => `${JSON.stringify(KEYS[i])} (#${i + 1}) ${ms.toFixed(0)} ms`)
    .join(', ');
const root = process.env.SEARCH_BENCH_ROOT ? resolve(process.env.SEARCH_BENCH_ROOT) : resolve(fileURLToPath(import.meta.url), '../../..');
const pct = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
const mb = (b: number) => b / 1048576;

async function inPage<T>(page: Page, fn: string, args: unknown = undefined): Promise<T> {
  return (await page.evaluate(`import('/test/bench/search-page.ts').then((m) => m.${fn}(${args === undefined ? '' : JSON.stringify(args)}))`)) as T;
}

// Peak RSS of Chromium's processes while `work` runs (sampled from /proc every 100 ms).
async function peakRss<T>(work: () => Promise<T>): Promise<{ result: T; peak: number }> {
  let peak = treeRss(process.pid).total;
  const timer = setInterval(() => {
    peak = Math.max(peak, treeRss(process.pid).total);
  }, 100);
  try {
    const result = await work();
    return { result, peak: Math.max(peak, treeRss(process.pid).total) };
  } finally {
    clearInterval(timer);
  }
}

async function run(ctx: BenchContext): Promise<void> {
  const totalMb = ctx.sizes?.[0] ?? 500;
  const sessions = Number(process.env.SEARCH_BENCH_SESSIONS ?? 1000);
  const port = Number(process.env.SEARCH_BENCH_PORT ?? 4223);
  const server = await createServer({
    root,
    configFile: resolve(root, 'vite.config.ts'),
    logLevel: 'warn',
    // No reload when a source file changes mid-run (a page reload would lose the library).
    server: { port, strictPort: true, hmr: false, watch: null },
    // No reload mid-run: every dependency is found up front (benchOptimizeDeps).
    optimizeDeps: benchOptimizeDeps,
  });
  await server.listen();
  // A profile on disk: in an incognito context OPFS lives in memory and would count as the tab's.
  const profile = mkdtempSync(resolve(tmpdir(), 'rho-search-'));
  const browser = await chromium.launchPersistentContext(profile, chromiumLaunchOptions());
  try {
    const page = await browser.newPage();
    if (process.env.BENCH_DEBUG) page.on('console', (m) => ctx.log(`page: ${m.text()}`));
    await page.goto(`http://localhost:${port}/__search_bench__`);
    ctx.log(`generating and importing ${sessions} sessions totalling ${totalMb} MB…`);
    const lib = await inPage<Record<string, number>>(page, 'setupLibrary', { totalMb, sessions });
    ctx.log(`generated in ${(lib.genMs / 1000).toFixed(0)} s; ${lib.added} added`);
    ctx.row({ name: `search: import ${sessions} sessions, ${mb(lib.sessionBytes).toFixed(0)} MB, without indexing`, value: lib.importMs, unit: 'ms' });
    const withIndex = lib.indexedImportMs + lib.syncMs;
    ctx.row({
      name: 'search: import with indexing (the import, then the sync that finishes the index)',
      value: withIndex,
      unit: 'ms',
      baseline: lib.importMs,
      ratio: withIndex / lib.importMs,
      target: '≤ 1.3×',
      ok: withIndex / lib.importMs <= 1.3,
      note: `baseline: the same import by a worker that leaves indexing for later (?index=later), into its own folder, the mean of one run before (${lib.plainBefore.toFixed(0)} ms) and one after (${lib.plainAfter.toFixed(0)} ms); import ${lib.indexedImportMs.toFixed(0)} ms + sync ${lib.syncMs.toFixed(0)} ms, ${lib.indexed} sessions indexed`,
    });
    ctx.row({
      name: 'search: index on disk (the scan keeps none)',
      value: mb(lib.indexBytes),
      unit: 'MB',
      baseline: mb(lib.sessionBytes),
      ratio: lib.indexBytes / lib.sessionBytes,
      target: '≤ 0.2× the sessions',
      ok: lib.indexBytes / lib.sessionBytes <= 0.2,
    });

    // The library screen's memory: a fresh worker that has listed the library and read the index.
    const reopened = await inPage<{ loadMs: number }>(page, 'reopen');
    ctx.row({ name: 'search: a new worker reads the index from its parts (after a reload)', value: reopened.loadMs, unit: 'ms' });
    await inPage(page, 'listLibrary');
    const cdp = await browser.newCDPSession(page);
    const typed: Record<string, number[]> = {};
    const pages: Record<string, number[]> = {};
    const scans: Record<string, number[]> = {};
    let found: Record<string, number> = {};
    let scanFound: Record<string, number> = {};
    const screen = treeRss(process.pid).total;
    let searchPeak = 0;
    let scanPeak = 0;
    for (const rate of [1, 4]) {
      await cdp.send('Emulation.setCPUThrottlingRate', { rate });
      const t = await peakRss(() => inPage<{ times: number[]; pages?: number[]; found: Record<string, number> }>(page, 'typeQueries', TYPED));
      typed[rate] = t.result.times;
      if (t.result.pages) pages[rate] = t.result.pages;
      found = t.result.found;
      if (rate === 1) searchPeak = t.peak;
      // The scan reads every byte per query: only at 1× (4× would take minutes and says the same).
      if (rate === 1) {
        // SEARCH_BENCH_SCANS: how many of the queries the scan answers (each reads the whole library).
        const scanned = TYPED.slice(0, Number(process.env.SEARCH_BENCH_SCANS ?? TYPED.length));
        const s = await peakRss(() => inPage<{ times: number[]; found: Record<string, number> }>(page, 'scanQueries', scanned));
        scans[rate] = s.result.times;
        scanFound = s.result.found;
        scanPeak = s.peak;
      }
    }
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    for (const rate of [1, 4]) {
      const p95 = pct(typed[rate], 0.95);
      const target = rate === 1 ? 50 : 150;
      const scan = scans[1] ? pct(scans[1], 0.5) : undefined;
      ctx.row({
        name: `search: a keystroke answered by the index, p95 (${typed[rate].length} keystrokes, CPU ${rate}×)`,
        value: p95,
        unit: 'ms',
        ...(scan !== undefined && rate === 1 ? { baseline: scan } : {}),
        target: `≤ ${target} ms`,
        ok: p95 <= target,
        note: `p50 ${pct(typed[rate], 0.5).toFixed(1)} ms, max ${Math.max(...typed[rate]).toFixed(0)} ms; slowest: ${slowest(typed[rate])}${rate === 1 ? `; baseline: the full scan's median for one whole query` : ''}`,
      });
    }
    for (const rate of [1, 4]) {
      if (!pages[rate]) continue;
      ctx.row({
        name: `search: a keystroke's whole first page (first screen, then the rest), p95 (CPU ${rate}×)`,
        value: pct(pages[rate], 0.95),
        unit: 'ms',
        note: `p50 ${pct(pages[rate], 0.5).toFixed(1)} ms; the keystroke's answer is its first screen (the row above), the rest follows unless the next key comes first`,
      });
    }
    ctx.row({
      name: `search: a full scan (no index), one whole query (${scans[1].length} queries, CPU 1×), p95`,
      value: pct(scans[1], 0.95),
      unit: 'ms',
      note: `sessions found, index vs scan (substring): ${Object.keys(found)
        .map((q) => `"${q}" ${found[q]} vs ${scanFound[q]}`)
        .join(', ')}`,
    });
    ctx.row({
      name: 'search: tab memory while searching, above the library screen (RSS of Chromium)',
      value: mb(searchPeak - screen),
      unit: 'MB',
      baseline: mb(scanPeak - screen),
      target: '≤ 150 MB',
      ok: mb(searchPeak - screen) <= 150,
      note: `baseline: the full scan's, above the same screen; the screen ${mb(screen).toFixed(0)} MB`,
    });

    const lost = await inPage<{ rebuildMs: number; progressMessages: number; indexBytes: number }>(page, 'loseIndex');
    ctx.row({
      name: 'search: a lost index rebuilt from the files',
      value: lost.rebuildMs,
      unit: 'ms',
      baseline: lib.importMs,
      ratio: lost.rebuildMs / lib.importMs,
      target: '≤ 2× the import',
      ok: lost.rebuildMs / lib.importMs <= 2,
      note: `${lost.progressMessages} progress messages; ${mb(lost.indexBytes).toFixed(1)} MB written`,
    });
    await inPage(page, 'cleanup');
  } finally {
    await browser.close();
    await server.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

const suite: BenchSuite = {
  name: 'search',
  description: 'search: the index vs a full scan on 1,000 generated sessions (Chromium, OPFS): keystrokes at 1× and 4× CPU, disk, import, memory, rebuild',
  defaultSizes: [500],
  run,
};
export default suite;
