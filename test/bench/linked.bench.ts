/**
 * Linked folders in Chromium: a re-sync of an unchanged folder of 1,000 sessions against
 * importing it (its first sync), through the real worker over an OPFS directory handle (the
 * FileSystemDirectoryHandle interface of a picked folder), at 1× and 4× CPU throttling. Target: the
 * re-sync costs ≤ 5 % of the import. `npm run bench -- linked [--sizes 1000] [--runs 5]`.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { createServer } from 'vite';
import { chromiumLaunchOptions } from '../tools/browser.ts';
import type { BenchContext, BenchSuite } from './harness.ts';

const root = resolve(fileURLToPath(import.meta.url), '../../..');

async function run(ctx: BenchContext): Promise<void> {
  const sessions = ctx.sizes?.[0] ?? 1000;
  const runs = ctx.runs ?? 5;
  const server = await createServer({
    root,
    configFile: resolve(root, 'vite.config.ts'),
    logLevel: 'warn',
    server: { port: Number(process.env.BENCH_PORT ?? 4197), strictPort: false, hmr: false, watch: null },
    optimizeDeps: { include: ['fflate', 'idb-keyval', 'zod'] },
  });
  await server.listen();
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    const page = await browser.newPage();
    const base = server.resolvedUrls?.local[0] ?? 'http://localhost:4197/';
    await page.goto(new URL('__linked_bench__', base).href);
    const folder = 'bench-linked-folder';
    ctx.log(`writing a folder of ${sessions} sessions…`);
    const bytes = (await page.evaluate(
      `import('/test/bench/linked-page.ts').then((m) => m.makeFolder(${JSON.stringify({ folder, sessions, bytes: 8192 })}))`,
    )) as number;
    const cdp = await page.context().newCDPSession(page);
    for (const rate of [1, 4]) {
      await cdp.send('Emulation.setCPUThrottlingRate', { rate });
      ctx.log(`${rate}× CPU: first sync, then ${runs} re-syncs…`);
      const r = (await page.evaluate(
        `import('/test/bench/linked-page.ts').then((m) => m.timeSyncs(${JSON.stringify({ folder, store: `bench-linked-store-${rate}`, runs })}))`,
      )) as { first: number; resync: number; added: number; unchanged: number };
      if (r.added !== sessions || r.unchanged !== sessions) throw new Error(`linked bench: added ${r.added}, unchanged ${r.unchanged} of ${sessions}`);
      ctx.row({ name: `linked: first sync (import) of ${sessions} sessions, ${(bytes / 1048576).toFixed(1)} MB, ${rate}× CPU`, value: r.first, unit: 'ms' });
      ctx.row({
        name: `linked: re-sync of the unchanged folder vs its import, ${rate}× CPU (median of ${runs})`,
        value: r.resync,
        unit: 'ms',
        baseline: r.first,
        ratio: r.resync / r.first,
        target: '≤ 0.05×',
        ok: r.resync / r.first <= 0.05,
      });
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

const suite: BenchSuite = {
  name: 'linked',
  description: 'linked folder: re-sync of an unchanged folder of 1,000 sessions vs importing it (Chromium, 1× and 4× CPU)',
  defaultSizes: [1000],
  run,
};
export default suite;
