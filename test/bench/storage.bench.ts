/**
 * Storage speed in Chromium: importing a 100 MB session and a folder of 500 sessions
 * through the real worker, against writing the same bytes straight to OPFS with a sync access
 * handle (ratio, targets ≤ 1.3× for one big session and ≤ 1.5× for the folder); listing 2,000 sessions from the index (median ms, target
 * ≤ 100 ms) beside the time to read the index bytes.
 *
 * A bench suite for test/bench/run.ts (`npm run bench -- storage`), and runnable alone:
 * `npx tsx test/bench/storage.bench.ts [--sizes 100] [--runs 3]`. Inputs are generated in the page
 * on demand (nothing committed). Serves the repo with vite on port 4196 (BENCH_PORT overrides).
 * STORAGE_PROFILE=disk: a browser profile on disk (Playwright's default is in memory); THROTTLE=n:
 * CPU slowed n×; STORAGE_LIST=0: the import rows only.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from '@playwright/test';
import { chromiumLaunchOptions } from '../tools/browser.ts';

import type { BenchContext as Ctx, BenchRow as Row, BenchSuite } from './harness.ts';
import { serveSources } from './source-server.ts';

const root = resolve(fileURLToPath(import.meta.url), '../../..');

/** Runs the storage bench and reports rows. */
export async function runStorageBench(ctx: Ctx): Promise<void> {
  const sizeMb = ctx.sizes?.[0] ?? 100;
  const runs = ctx.runs ?? 3;
  const port = Number(process.env.BENCH_PORT ?? 4196);
  const server = await serveSources(root, port, false);
  // Playwright's pages live in an off-the-record profile, whose OPFS is held in memory by the
  // browser process (every sync-handle call a round trip to it). STORAGE_PROFILE=disk: a profile on
  // disk instead, as an installed app's, where sync-handle calls are file calls in the worker.
  const onDisk = process.env.STORAGE_PROFILE === 'disk';
  const profileDir = onDisk ? mkdtempSync(join(tmpdir(), 'rho-storage-bench-')) : null;
  const context = profileDir ? await chromium.launchPersistentContext(profileDir, chromiumLaunchOptions()) : null;
  const browser = context ? null : await chromium.launch(chromiumLaunchOptions());
  try {
    const page = context ? await context.newPage() : await browser!.newPage();
    // THROTTLE=4: Chromium's CPU slowed (Emulation.setCPUThrottlingRate), as the reader bench's phone rows.
    if (process.env.THROTTLE) await (await page.context().newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: Number(process.env.THROTTLE) });
    if (process.env.BENCH_DEBUG) page.on('console', (m) => ctx.log(`page: ${m.text()}`));
    // The next free port when ours is taken (another bench run on this machine).
    const base = server.resolvedUrls?.local[0] ?? `http://localhost:${port}/`;
    await page.goto(new URL('__storage_bench__', base).href);
    ctx.log(`importing ${sizeMb} MB, a folder of 500, listing 2,000 (runs: ${runs})…`);
    // The page code is served by vite (a string here: tsx's name helpers would not survive serialization).
    // STORAGE_LIST=0: the import rows only (side-by-side rounds of a build against another).
    const listCount = process.env.STORAGE_LIST === '0' ? 0 : 2000;
    const args = JSON.stringify({ sizeMb, runs, folder: 500, listCount });
    const r = (await page.evaluate(`import('/test/bench/storage-page.ts').then((m) => m.pageBench(${args}))`)) as Record<string, number>;
    // Targets: one big session ≤ 1.3× the raw write, a folder of small ones ≤ 1.5×.
    const ratioRow = (name: string, value: number, base: number, limit: number, note?: string) =>
      ctx.row({ name, value, unit: 'ms', baseline: base, ratio: value / base, target: `≤ ${limit}×`, ok: value / base <= limit, note });
    const where = `${onDisk ? ', profile on disk' : ''}${process.env.THROTTLE ? `, CPU ${process.env.THROTTLE}×` : ''}`;
    const big = `storage: import one ${Math.round(r.bigBytes / 1048576)} MB session${where}`;
    const folder = `storage: import a folder of 500 sessions (${Math.round(r.folderBytes / 1048576)} MB)${where}`;
    const later = 'a worker that leaves the search index for later (?index=later), as imports were before it was made at import';
    ratioRow(`${big} vs raw OPFS write`, r.bigImport, r.bigRaw, 1.3, 'the import as the app runs it: its search index made on the way');
    ratioRow(`${big}, indexing later, vs raw OPFS write`, r.bigLater, r.bigRaw, 1.3, later);
    ratioRow(`${folder} vs raw OPFS writes`, r.folderImport, r.folderRaw, 1.5, 'the import as the app runs it: its search index made on the way');
    ratioRow(`${folder}, indexing later, vs raw OPFS writes`, r.folderLater, r.folderRaw, 1.5, later);
    if (!listCount) return;
    ctx.row({
      name: 'storage: list 2,000 sessions, fresh worker (median)',
      value: r.listCold,
      unit: 'ms',
      target: '≤ 100 ms',
      ok: r.listCold <= 100,
      note: 'first call of a new worker: checks the index against the files, then reads it',
    });
    ctx.row({ name: 'storage: list 2,000 sessions, warm (median)', value: r.listWarm, unit: 'ms', target: '≤ 100 ms', ok: r.listWarm <= 100 });
    ctx.row({ name: `storage: read the index bytes (${Math.round(r.indexBytes / 1024)} KB, median)`, value: r.readIndex, unit: 'ms' });
    ctx.row({
      name: 'storage: import 2,000 small sessions in one call',
      value: r.listImportAll,
      unit: 'ms',
      note: `${(r.listImportAll / listCount).toFixed(1)} ms a file`,
    });
    // Flat in the library's size: the folder of 500 into a library of 2,000 against into an empty one.
    ctx.row({
      name: `storage: import a folder of 500 sessions into a library of 2,000+ vs into an empty one${where}`,
      value: r.intoLibrary,
      unit: 'ms',
      baseline: r.intoEmpty,
      ratio: r.intoLibrary / r.intoEmpty,
      target: '≤ 1.15×',
      ok: r.intoLibrary / r.intoEmpty <= 1.15,
      note: `${(r.intoLibrary / 500).toFixed(1)} ms a file against ${(r.intoEmpty / 500).toFixed(1)} ms (median of ${runs}, order alternating)`,
    });
  } finally {
    await (context ?? browser)?.close();
    await server.close();
    if (profileDir) rmSync(profileDir, { recursive: true, force: true });
  }
}

const suite: BenchSuite = {
  name: 'storage',
  description: 'OPFS import vs raw sync-handle writes, listing 2,000 sessions (Chromium via Playwright)',
  defaultSizes: [100],
  run: runStorageBench,
};
export default suite;

// Standalone: `npx tsx test/bench/storage.bench.ts [--sizes 100] [--runs 3]`.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i >= 0 ? process.argv[i + 1] : undefined;
  };
  const rows: Row[] = [];
  await runStorageBench({
    sizes: arg('--sizes')?.split(',').map(Number) ?? null,
    runs: arg('--runs') ? Number(arg('--runs')) : null,
    row: (r) => rows.push(r),
    log: (m) => process.stderr.write(m + '\n'),
  });
  for (const r of rows) {
    const ratio = r.ratio === undefined ? '' : `  ${r.ratio.toFixed(2)}× of ${r.baseline!.toFixed(1)} ms`;
    console.log(`${r.name}: ${r.value.toFixed(1)} ${r.unit}${ratio}${r.target ? `  target ${r.target} ${r.ok ? 'met' : 'NOT met'}` : ''}`);
  }
}
