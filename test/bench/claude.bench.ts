/**
 * Converting a Claude Code transcript to pi (src/core/formats/claude), side by side with
 * (a) decoding the same bytes and JSON.parse of every line: on the largest real file
 * (3.3 MB, Claude Code 2.1.92–2.1.101, six compactions) and on a generated one of each size
 * (`--sizes`, MB; prompts, split responses with thinking and parallel tool calls, hook progress).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { claudeToPi } from '../../src/core/formats/claude/index.ts';
import { claudeLarge } from '../gen/claude.ts';
import { atMost, type BenchContext, type BenchSuite, compare } from './harness.ts';

const REAL = join(import.meta.dirname, '../../fixtures/other-agents/claude/LAF-US-IDAHO-VAULT-v2.1.101-compact6.jsonl');

function jsonLines(bytes: Uint8Array): unknown[] {
  const out: unknown[] = [];
  for (const line of new TextDecoder().decode(bytes).split('\n')) if (line.length > 0) out.push(JSON.parse(line));
  return out;
}

async function measure(ctx: BenchContext, label: string, bytes: Uint8Array): Promise<void> {
  const t = await compare({ a: () => jsonLines(bytes), convert: () => claudeToPi(bytes) }, ctx.runs ?? 7);
  const target = atMost(4, '× (a)');
  const ratio = t.convert.cpu / t.a.cpu;
  ctx.row({ name: `(a) decode + JSON.parse every line, ${label}`, value: t.a.cpu, unit: 'ms cpu' });
  ctx.row({
    name: `claude convert (to pi v3 text), ${label}`,
    value: t.convert.cpu,
    unit: 'ms cpu',
    baseline: t.a.cpu,
    ratio,
    target: target.target,
    ok: target.check(ratio),
  });
}

export default {
  name: 'claude',
  description: 'Claude Code → pi conversion vs JSON.parse of the same lines',
  defaultSizes: [3],
  async run(ctx) {
    const real = new Uint8Array(readFileSync(REAL));
    await measure(ctx, `real ${(real.length / 1e6).toFixed(1)} MB`, real);
    for (const mb of ctx.sizes ?? [3]) {
      ctx.log(`generating a ${mb} MB Claude transcript`);
      await measure(ctx, `generated ${mb} MB`, new TextEncoder().encode(claudeLarge(mb * 1e6)));
    }
  },
} satisfies BenchSuite;
