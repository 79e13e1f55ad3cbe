/**
 * The storage bench's import rows side by side for two builds (this checkout and another, e.g. a
 * worktree of main), in one browser, in interleaved rounds: each round runs each build's page once
 * (raw write, import, import indexing later), the order turning each round. Prints the ratios of
 * every round (read ranges, not single figures, on a loaded machine).
 *
 *   BASE=/work/wt-importbase MODE=memory|disk SIZE=100 FOLDER=500 ROUNDS=3 npx tsx test/bench/compare-storage.ts
 *   MODE=disk: a browser profile on disk (Playwright's default keeps OPFS in memory). THROTTLE=n: CPU slowed.
 *   Ports: BENCH_PORT (this build) and LOAD_BENCH_PORT (the other), default 4303 / 4304.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import type { ViteDevServer } from 'vite';
import { chromiumLaunchOptions } from '../tools/browser.ts';
import { serveSources } from './source-server.ts';

const [mode, sizeMb, folder, rounds] = [
  process.env.MODE ?? 'memory',
  Number(process.env.SIZE ?? 1),
  Number(process.env.FOLDER ?? 500),
  Number(process.env.ROUNDS ?? 3),
];
const here = resolve(fileURLToPath(import.meta.url), '../../..');
if (!process.env.BASE) throw new Error("BASE=<the other build's checkout> is needed");
const builds = [
  { name: 'this', root: here, port: Number(process.env.BENCH_PORT ?? 4303) },
  { name: 'base', root: process.env.BASE, port: Number(process.env.LOAD_BENCH_PORT ?? 4304) },
];
const servers: ViteDevServer[] = [];
for (const b of builds) servers.push(await serveSources(b.root, b.port));
const dir = mode === 'disk' ? mkdtempSync(join(tmpdir(), 'rho-cmp-')) : null;
const context = dir
  ? await chromium.launchPersistentContext(dir, chromiumLaunchOptions())
  : await (await chromium.launch(chromiumLaunchOptions())).newContext();
const pages: Array<Awaited<ReturnType<typeof context.newPage>>> = [];
for (const b of builds) {
  const p = await context.newPage();
  await p.goto(`http://localhost:${b.port}/__storage_bench__`);
  if (process.env.THROTTLE) await (await context.newCDPSession(p)).send('Emulation.setCPUThrottlingRate', { rate: Number(process.env.THROTTLE) });
  pages.push(p);
}
const results: Record<string, string[]> = { this: [], base: [] };
for (let r = 0; r < rounds; r++) {
  const order = r % 2 ? [1, 0] : [0, 1];
  for (const i of order) {
    const args = JSON.stringify({ sizeMb, runs: 1, folder, listCount: 0 });
    const load = (await import('node:os')).loadavg()[0].toFixed(1);
    const o = (await pages[i].evaluate(`import('/test/bench/storage-page.ts').then((m) => m.pageBench(${args}))`)) as Record<string, number>;
    const line = `big ${(o.bigImport / o.bigRaw).toFixed(2)}× / later ${(o.bigLater / o.bigRaw).toFixed(2)}× (raw ${o.bigRaw.toFixed(0)} ms, import ${o.bigImport.toFixed(0)}, later ${o.bigLater.toFixed(0)}); folder ${(o.folderImport / o.folderRaw).toFixed(2)}× / later ${(o.folderLater / o.folderRaw).toFixed(2)}× (raw ${o.folderRaw.toFixed(0)} ms, import ${o.folderImport.toFixed(0)}, later ${o.folderLater.toFixed(0)}) load ${load}`;
    results[builds[i].name].push(line);
    console.log(`round ${r} ${builds[i].name}: ${line}`);
  }
}
await context.close();
for (const s of servers) await s.close();
if (dir) rmSync(dir, { recursive: true, force: true });
process.exit(0);
