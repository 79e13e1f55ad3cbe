/**
 * The linked bench's first-sync row side by side for two builds (this checkout and another, e.g. an
 * export of main), in one browser, in interleaved rounds: each round runs, in each build's page, a
 * raw copy of the folder and a first sync of it into an empty library (the order of the builds
 * turning each round), at 1× and at 4× CPU. Prints every round's ratio and the medians.
 *
 *   BASE=/tmp/base SESSIONS=1000 ROUNDS=3 RATES=1,4 npx tsx test/bench/compare-linked.ts
 *   Ports: BENCH_PORT (this build) and LOAD_BENCH_PORT (the other), default 4305 / 4306.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import type { ViteDevServer } from 'vite';
import { chromiumLaunchOptions } from '../tools/browser.ts';
import { serveSources } from './source-server.ts';

const sessions = Number(process.env.SESSIONS ?? 1000);
const rounds = Number(process.env.ROUNDS ?? 3);
const rates = (process.env.RATES ?? '1,4').split(',').map(Number);
const here = resolve(fileURLToPath(import.meta.url), '../../..');
if (!process.env.BASE) throw new Error("BASE=<the other build's checkout> is needed");
const builds = [
  { name: 'this', root: here, port: Number(process.env.BENCH_PORT ?? 4305) },
  { name: 'base', root: process.env.BASE, port: Number(process.env.LOAD_BENCH_PORT ?? 4306) },
];
const servers: ViteDevServer[] = [];
for (const b of builds) servers.push(await serveSources(b.root, b.port));
const browser = await chromium.launch(chromiumLaunchOptions());
try {
  const pages = [];
  for (const b of builds) {
    const page = await browser.newPage();
    await page.goto(`http://localhost:${b.port}/__linked_bench__`);
    const cdp = await page.context().newCDPSession(page);
    const inPage = <T>(fn: string, args: unknown) =>
      page.evaluate(`import('/test/bench/linked-page.ts').then((m) => m.${fn}(${JSON.stringify(args)}))`) as Promise<T>;
    await inPage('makeFolder', { folder: 'cmp-folder', sessions, bytes: 8192, prefix: '0199' });
    pages.push({ cdp, inPage });
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  for (const rate of rates) {
    for (const p of pages) await p.cdp.send('Emulation.setCPUThrottlingRate', { rate });
    const ratios: Record<string, number[]> = { this: [], base: [] };
    for (let r = 0; r < rounds; r++) {
      for (const i of r % 2 ? [1, 0] : [0, 1]) {
        const { inPage } = pages[i];
        const raw = await inPage<number>('timeRawCopy', { folder: 'cmp-folder', into: `cmp-raw-${rate}-${r}` });
        const first = await inPage<{ empty: number; added: number }>('timeFirstSyncs', { folder: 'cmp-folder', store: `cmp-store-${rate}-${r}` });
        if (first.added !== sessions) throw new Error(`${builds[i].name}: a first sync added ${first.added} of ${sessions}`);
        ratios[builds[i].name].push(first.empty / raw);
        const load = (await import('node:os')).loadavg()[0].toFixed(1);
        console.log(
          `${rate}× round ${r} ${builds[i].name}: first sync ${first.empty.toFixed(0)} ms, raw ${raw.toFixed(0)} ms, ${(first.empty / raw).toFixed(2)}× (load ${load})`,
        );
      }
    }
    console.log(`${rate}× median: this ${median(ratios.this).toFixed(2)}×, base ${median(ratios.base).toFixed(2)}×`);
  }
} finally {
  await browser.close();
  for (const s of servers) await s.close();
}
process.exit(0);
