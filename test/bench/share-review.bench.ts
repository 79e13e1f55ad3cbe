/**
 * `npm run bench -- share-review`: the review before sharing, in MB/s of session scanned (both
 * passes: secretlint's preset and the detectors, then names and known values found again), side
 * by side with `JSON.parse` of the same lines, and the cleaned copy made after it. Node, an
 * in-memory store; real fixtures plus generated sessions (`--sizes`, MB).
 */
import { readFileSync } from 'node:fs';
import { createMemoryDisk } from '../../src/storage/memory-disk.ts';
import { createStore } from '../../src/storage/store.ts';
import { once } from '../../src/storage/chunks.ts';
import { cleanSession } from '../../src/worker/share/clean.ts';
import { reviewSession } from '../../src/worker/share/review.ts';
import { ensureGenerated, ROOT } from '../gen/fixtures.ts';
import { type BenchSuite, compare } from './harness.ts';

const REAL = ['fixtures/real/pi-mono-large-session.jsonl', 'fixtures/real/elithrar-dotfiles-codex-gpt55.jsonl'];

async function measure(ctx: Parameters<BenchSuite['run']>[0], label: string, bytes: Uint8Array, runs: number) {
  const store = createStore(createMemoryDisk(), { flushDelay: 60_000 });
  const s = await store.create('bench', once(bytes));
  const text = new TextDecoder().decode(bytes);
  const mb = bytes.length / 1e6;
  let hits = 0;
  const t = await compare(
    {
      parse: () => {
        for (const line of text.split('\n')) if (line) JSON.parse(line);
      },
      review: async () => {
        hits = (await reviewSession(store, s, { scope: 'session' })).hits.length;
      },
      clean: () => cleanSession(store, s, { scope: 'session' }),
    },
    runs,
  );
  const rate = (ms: number) => mb / (ms / 1000);
  ctx.row({
    name: `share review scan, ${label}`,
    value: rate(t.review.cpu),
    unit: 'MB/s',
    baseline: rate(t.parse.cpu),
    note: `${hits} hits listed; baseline = JSON.parse of every line`,
  });
  ctx.row({ name: `share review vs JSON.parse, ${label}`, value: t.review.cpu, unit: 'ms', baseline: t.parse.cpu, ratio: t.review.cpu / t.parse.cpu });
  ctx.row({ name: `share cleaned copy (review + redact), ${label}`, value: rate(t.clean.cpu), unit: 'MB/s' });
}

export default {
  name: 'share-review',
  description: 'review before sharing: scan MB/s vs JSON.parse, and the cleaned copy (Node)',
  defaultSizes: [10],
  async run(ctx) {
    for (const path of REAL) {
      ctx.log(path);
      await measure(ctx, path.split('/').pop() as string, new Uint8Array(readFileSync(`${ROOT}/${path}`)), ctx.runs ?? 3);
    }
    for (const size of ctx.sizes ?? [10]) {
      ctx.log(`generated ${size} MB`);
      await measure(ctx, `generated ${size} MB`, new Uint8Array(readFileSync(ensureGenerated(size))), ctx.runs ?? 2);
    }
  },
} satisfies BenchSuite;
