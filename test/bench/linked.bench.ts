/**
 * Linked folders in Chromium, through the real worker over an OPFS directory handle (the
 * FileSystemDirectoryHandle interface of a picked folder), at 1× and 4× CPU throttling: the first
 * sync (an import) of a folder of 1,000 small sessions against reading and writing the same files
 * raw (target ≤ 1.5×); at 1×, that first sync into a library that already holds 1,000 others against
 * into an empty one (flat in the library's size: ≤ 1.15×); a re-sync of the unchanged folder against
 * its import (≤ 5 %). `npm run bench -- linked [--sizes 1000] [--runs 5]`.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { chromiumLaunchOptions } from '../tools/browser.ts';
import type { BenchContext, BenchSuite } from './harness.ts';
import { serveSources } from './source-server.ts';

const root = resolve(fileURLToPath(import.meta.url), '../../..');

async function run(ctx: BenchContext): Promise<void> {
  const sessions = ctx.sizes?.[0] ?? 1000;
  const runs = ctx.runs ?? 5;
  const server = await serveSources(root, Number(process.env.BENCH_PORT ?? 4197), false);
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    const page = await browser.newPage();
    const base = server.resolvedUrls?.local[0] ?? 'http://localhost:4197/';
    await page.goto(new URL('__linked_bench__', base).href);
    const folder = 'bench-linked-folder';
    ctx.log(`writing a folder of ${sessions} sessions…`);
    const make = (name: string, prefix: string) =>
      page.evaluate(
        `import('/test/bench/linked-page.ts').then((m) => m.makeFolder(${JSON.stringify({ folder: name, sessions, bytes: 8192, prefix })}))`,
      ) as Promise<number>;
    const bytes = await make(folder, '0199');
    // Other sessions of the same sizes: the library the folder is linked into for the flat-in-size row.
    const grown = 'bench-linked-grown';
    await make(grown, '0299');
    const inPage = <T>(fn: string, args: unknown) =>
      page.evaluate(`import('/test/bench/linked-page.ts').then((m) => m.${fn}(${JSON.stringify(args)}))`) as Promise<T>;
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const cdp = await page.context().newCDPSession(page);
    // First syncs timed against the raw copy (and, at 1×, into a grown library): rounds alternating.
    const rounds = Math.min(runs, 3);
    for (const rate of [1, 4]) {
      await cdp.send('Emulation.setCPUThrottlingRate', { rate });
      ctx.log(`${rate}× CPU: first sync, then ${runs} re-syncs…`);
      const r = await inPage<{ first: number; resync: number; added: number; unchanged: number }>('timeSyncs', {
        folder,
        store: `bench-linked-store-${rate}`,
        runs,
      });
      if (r.added !== sessions || r.unchanged !== sessions) throw new Error(`linked bench: added ${r.added}, unchanged ${r.unchanged} of ${sessions}`);
      ctx.log(`${rate}× CPU: ${rounds} rounds of the first sync beside a raw copy of the folder…`);
      const firsts = [r.first];
      const raws: number[] = [];
      const empties: number[] = [];
      const libraries: number[] = [];
      for (let k = 0; k < rounds; k++) {
        raws.push(await inPage<number>('timeRawCopy', { folder, into: `bench-linked-raw-${rate}-${k}` }));
        const f = await inPage<{ empty: number; library?: number; added: number }>('timeFirstSyncs', {
          folder,
          store: `bench-linked-first-${rate}-${k}`,
          ...(rate === 1 ? { grown, libraryFirst: k % 2 === 1 } : {}),
        });
        if (f.added !== sessions) throw new Error(`linked bench: a first sync added ${f.added} of ${sessions}`);
        firsts.push(f.empty);
        empties.push(f.empty);
        if (f.library !== undefined) libraries.push(f.library);
      }
      const first = median(firsts);
      const raw = median(raws);
      ctx.row({
        name: `linked: first sync (import) of ${sessions} sessions, ${(bytes / 1048576).toFixed(1)} MB, vs reading and writing the same files raw, ${rate}× CPU`,
        value: first,
        unit: 'ms',
        baseline: raw,
        ratio: first / raw,
        target: '≤ 1.5×',
        ok: first / raw <= 1.5,
        note: `median of ${firsts.length} first syncs and ${raws.length} raw copies (each file read from the folder, written with a sync handle, in a worker); ${(first / sessions).toFixed(1)} ms a file`,
      });
      if (libraries.length) {
        const empty = median(empties);
        const library = median(libraries);
        ctx.row({
          name: `linked: first sync of ${sessions} sessions into a library of ${sessions} vs into an empty one, ${rate}× CPU`,
          value: library,
          unit: 'ms',
          baseline: empty,
          ratio: library / empty,
          target: '≤ 1.15×',
          ok: library / empty <= 1.15,
          note: `median of ${libraries.length} each, order alternating`,
        });
      }
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
  description: 'linked folder of 1,000 sessions: first sync vs a raw copy, into a grown library vs an empty one, re-sync vs import (Chromium, 1× and 4× CPU)',
  defaultSizes: [1000],
  run,
};
export default suite;
