// Library index records with usage digests, for the Usage screen's browser tests.
import { SLICE_MS, type UsageDigest } from '../../../../src/core/index.ts';
import type { SessionSummary } from '../../../../src/ui/models/calls.ts';

/** Session `i`'s index record (without `usage`) and its digest: one assistant turn, `spacing` 15-minute slices apart. */
export function usageRecord(i: number, spacing: number, agent: 'pi' | 'omp' = 'pi'): { record: SessionSummary; usage: UsageDigest } {
  const now = Math.floor(Date.now() / SLICE_MS);
  const usage: UsageDigest = {
    agent,
    models: ['acme/model-1'],
    start: now - i * spacing,
    // slice, model, turns, input, output, cache read, cache write, tokens, cost, costed, calls, errors
    branch: [[0, 0, 1, 100, 10, 0, 0, 110, 0.5, 1, 0, 0]],
    other: [],
  };
  const record = {
    id: `s${i}`,
    path: `sessions/s${i}.jsonl`,
    title: `Session ${i}`,
    firstMessage: null,
    cwd: `/home/u/p${i % 3}`,
    created: new Date((now - i * spacing) * SLICE_MS).toISOString(),
    modified: Date.now(),
    date: (now - i * spacing) * SLICE_MS,
    size: 1000,
    entryCount: 2,
    branchCount: 1,
    model: 'acme/model-1',
    totals: { input: 100, output: 10, cacheRead: 0, cacheWrite: 0, tokens: 110, cost: 0.5, messages: 2 },
    problems: 0,
  } as unknown as SessionSummary;
  return { record, usage };
}
