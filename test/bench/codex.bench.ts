/**
 * Converting a Codex rollout to pi v3 (src/core/formats/codex) on generated rollouts of every item
 * type (test/gen/codex-rollout.ts), side by side with (a) JSON.parse of every line of the same
 * bytes (the least any reader of the file does) and (b) our core's indexEnvelopes of the
 * converted text (what the app does next with it).
 *
 *   npm run bench -- codex               10 MB
 *   npm run bench -- codex --sizes 1,50
 */
import { toPiSession } from '../../src/core/formats/index.ts';
import { indexEnvelopes } from '../../src/core/index.ts';
import { codexRollout } from '../gen/codex-rollout.ts';
import { type BenchSuite, compare } from './harness.ts';

const MB = 1e6;

function jsonLines(bytes: Uint8Array): number {
  let n = 0;
  for (const line of new TextDecoder().decode(bytes).split('\n')) if (line.length > 0 && JSON.parse(line)) n++;
  return n;
}

export default {
  name: 'codex',
  description: 'Codex rollout → pi v3 conversion vs JSON.parse of every line',
  defaultSizes: [10],
  async run(ctx) {
    for (const size of ctx.sizes ?? [10]) {
      // About 7.6 kB per generated turn.
      const bytes = new TextEncoder().encode(codexRollout({ turns: Math.max(1, Math.round((size * MB) / 7600)) }));
      const label = `${(bytes.length / MB).toFixed(1)} MB`;
      ctx.log(`codex: ${label}`);
      const text = toPiSession(bytes)!.text;
      const t = await compare({ convert: () => toPiSession(bytes), a: () => jsonLines(bytes), b: () => indexEnvelopes(text) }, ctx.runs ?? 3);
      ctx.row({ name: `(a) JSON.parse every line, ${label}`, value: t.a.cpu, unit: 'ms cpu' });
      ctx.row({ name: `(b) indexEnvelopes of the converted text, ${label}`, value: t.b.cpu, unit: 'ms cpu' });
      ctx.row({ name: `convert Codex → pi v3, ${label}`, value: t.convert.cpu, unit: 'ms cpu', baseline: t.a.cpu, ratio: t.convert.cpu / t.a.cpu });
    }
  },
} satisfies BenchSuite;
