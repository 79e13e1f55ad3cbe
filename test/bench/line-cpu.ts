/**
 * A diagnostic, not a bench: the full-size single-line session imported right after the load
 * bench's library (1,000 sessions in one call, then a listing), in this build and in another
 * (BENCH_BASELINE=<checkout>), rounds alternating; for each, the wall time and the CPU time that
 * Chromium's processes spent meanwhile (from /proc), and that of the worker's thread alone: CPU
 * time holds still on a machine others load, where wall time does not.
 *
 *   RACE=1: a search-index sync is asked for while the import finishes (see line-cpu-page.ts).
 *   LINE_CPU_PORT=4181 BENCH_BASELINE=/work/wt/b7 npx tsx test/bench/line-cpu.ts [totalMb=500] [rounds=1] [sessions=1000]
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { createServer } from 'vite';
import { benchOptimizeDeps } from './source-server.ts';
import { chromiumLaunchOptions } from '../tools/browser.ts';

const here = resolve(fileURLToPath(import.meta.url), '..');
const root = resolve(here, '../..');
const totalMb = Number(process.argv[2] ?? 500);
const rounds = Number(process.argv[3] ?? 1);
const sessions = Number(process.argv[4] ?? 1000);
const port = Number(process.env.LINE_CPU_PORT ?? 4181);

/** CPU seconds and run-queue wait seconds of each Chromium thread among this process's descendants, by "pid/tid name" (/proc/…/schedstat). */
function threadCpu(): Map<string, [number, number]> {
  const parent = new Map<number, number>();
  const chrome = new Set<number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      if (/chrom/i.test(stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')))) chrome.add(Number(name));
    } catch {
      // Ended meanwhile.
    }
  }
  const mine = (p: number) => {
    for (let q: number | undefined = p; q; q = parent.get(q)) if (q === process.pid) return true;
    return false;
  };
  const out = new Map<string, [number, number]>();
  for (const p of chrome) {
    if (!mine(p)) continue;
    let tasks: string[] = [];
    try {
      tasks = readdirSync(`/proc/${p}/task`);
    } catch {
      continue;
    }
    for (const t of tasks) {
      try {
        const comm = readFileSync(`/proc/${p}/task/${t}/comm`, 'utf8').trim();
        const [cpu, wait] = readFileSync(`/proc/${p}/task/${t}/schedstat`, 'utf8').split(' ').map(Number);
        out.set(`${p}/${t} ${comm}`, [cpu / 1e9, wait / 1e9]);
      } catch {
        // Ended meanwhile.
      }
    }
  }
  return out;
}

interface Round {
  libraryMs: number;
  lineMs: number;
  cpu: number;
  busiest: Array<[string, number, number]>;
}

async function once(checkout: string, p: number): Promise<Round> {
  const server = await createServer({
    root: checkout,
    configFile: resolve(checkout, 'vite.config.ts'),
    logLevel: 'warn',
    // The page module is this checkout's, served to the other build too.
    server: { port: p, strictPort: true, hmr: false, watch: null, fs: { strict: false } },
    optimizeDeps: benchOptimizeDeps,
  });
  await server.listen();
  const profile = mkdtempSync(resolve(tmpdir(), 'rho-line-cpu-'));
  const browser = await chromium.launchPersistentContext(profile, chromiumLaunchOptions());
  try {
    const page = await browser.newPage();
    await page.goto(`http://localhost:${p}/__line_cpu__`);
    const mod = `import('/@fs${here}/line-cpu-page.ts')`;
    const libraryMs = (await page.evaluate(`${mod}.then((m) => m.library(${JSON.stringify({ sessions, totalMb })}))`)) as number;
    const before = threadCpu();
    const lineMs = (await page.evaluate(`${mod}.then((m) => m.importLine(${process.env.RACE ? 'true' : 'false'}))`)) as number;
    const after = threadCpu();
    const used = [...after]
      .map(([k, [c, w]]) => [k, c - (before.get(k)?.[0] ?? 0), w - (before.get(k)?.[1] ?? 0)] as [string, number, number])
      .sort((a, b) => b[1] - a[1]);
    return { libraryMs, lineMs, cpu: used.reduce((n, [, c]) => n + c, 0), busiest: used.slice(0, 5) };
  } finally {
    await browser.close();
    await server.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

const builds: Array<[string, string, number]> = [['this', root, port]];
if (process.env.BENCH_BASELINE) builds.push(['baseline', resolve(process.env.BENCH_BASELINE), port + 1]);
for (let r = 0; r < rounds; r++) {
  for (const [name, checkout, p] of r % 2 ? [...builds].reverse() : builds) {
    const x = await once(checkout, p);
    console.log(
      `${name} (${checkout}): library ${(x.libraryMs / 1000).toFixed(1)} s; line import ${(x.lineMs / 1000).toFixed(2)} s wall, ${x.cpu.toFixed(2)} s CPU in Chromium; busiest threads (CPU s / waiting for a CPU s / neither s): ${x.busiest
        .map(([k, c, w]) => `${k.split(' ').slice(1).join(' ')} ${c.toFixed(2)} / ${w.toFixed(2)} / ${(x.lineMs / 1000 - c - w).toFixed(2)}`)
        .join(', ')}`,
    );
  }
}
