// The index's usage digest against the reader's Stats (core `buildStats` over the whole parse):
// the Usage screen's totals must equal the sum of each session's own stats, on real files and
// generated ones, for the active branch and for every branch.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import {
  addSums,
  branch,
  emptySums,
  parse,
  SLICE_MS,
  summarizeUsage,
  usageRows,
  type Entry,
  type UsageRecord,
  type UsageScope,
  type UsageSums,
} from '../../src/core/index.ts';
import { buildStats } from '../../src/core/view/index.ts';
import { digestSession } from '../../src/core/read/digest.ts';
import { generateSessionText } from '../gen/session.ts';
import { INDEX_PATH } from '../../src/storage/names.ts';
import { bytes, memoryStore, sessionText } from './helpers.ts';

const dirs = ['real', 'pi', 'omp', 'samples', 'synthetic'];
const files = dirs.flatMap((d) =>
  readdirSync(new URL(`../../fixtures/${d}/`, import.meta.url))
    .filter((f) => f.endsWith('.jsonl'))
    .map((f) => `${d}/${f}`),
);
const read = (f: string) => new Uint8Array(readFileSync(new URL(`../../fixtures/${f}`, import.meta.url)));
const utcDay = (slice: number) => new Date(slice * SLICE_MS).toISOString().slice(0, 10);

async function* once(b: Uint8Array) {
  yield b;
}

/** An index-like record of a file, from the storage scan. */
async function recordOf(id: string, b: Uint8Array): Promise<UsageRecord> {
  const { digest } = await digestSession(once(b));
  return { id, title: digest.title, cwd: digest.cwd, usage: digest.usage };
}

/** Tool results marked as errors, counted straight from the entries. */
const toolErrors = (entries: readonly Entry[]) =>
  entries.filter(
    (e) =>
      e.type === 'message' &&
      (e.message as { role?: string; isError?: unknown })?.role === 'toolResult' &&
      (e.message as { isError?: unknown }).isError === true,
  ).length;

/** The sums the reader's Stats gives a file, for one scope. */
function statsSums(b: Uint8Array, scope: UsageScope): UsageSums & { statsCost: number } {
  const s = parse(b);
  const onBranch = branch(s);
  const stats = buildStats(s.entries, onBranch);
  const t = scope === 'branch' ? stats.branch : stats.file;
  return {
    turns: t.turns,
    input: t.input,
    output: t.output,
    cacheRead: t.cacheRead,
    cacheWrite: t.cacheWrite,
    tokens: t.tokens,
    cost: t.cost,
    statsCost: t.cost,
    costedTurns: 0,
    toolCalls: t.toolCalls,
    toolErrors: toolErrors(scope === 'branch' ? onBranch : s.entries),
  };
}

function expectSame(actual: UsageSums, expected: UsageSums & { statsCost: number }, label: string) {
  for (const k of ['turns', 'input', 'output', 'cacheRead', 'cacheWrite', 'tokens', 'toolCalls', 'toolErrors'] as const)
    expect(actual[k], `${label}: ${k}`).toBe(expected[k]);
  expect(actual.cost, `${label}: cost`).toBeCloseTo(expected.statsCost, 9);
}

describe('usage digest vs the reader Stats', () => {
  test.each(files)('%s: both scopes equal the file Stats', async (f) => {
    const b = read(f);
    const record = await recordOf(f, b);
    for (const scope of ['branch', 'all'] as const) {
      const report = summarizeUsage(usageRows([record], { scope, dayOf: utcDay }));
      expectSame(report.total, statsSums(b, scope), `${f} ${scope}`);
    }
  });

  test('the whole library: totals equal the sum of every session own Stats, and per-model sums add up', async () => {
    const records: UsageRecord[] = [];
    const sum = { branch: { ...emptySums(), statsCost: 0 }, all: { ...emptySums(), statsCost: 0 } };
    const inputs = files.map((f) => ({ id: f, b: read(f) }));
    for (let seed = 1; seed <= 6; seed++) {
      const text = generateSessionText({ seed, targetBytes: 60_000, flavor: seed % 2 ? 'pi' : 'omp', branchRate: 0.2, imageRate: 0 });
      inputs.push({ id: `gen-${seed}`, b: bytes(text) });
    }
    for (const { id, b } of inputs) {
      records.push(await recordOf(id, b));
      for (const scope of ['branch', 'all'] as const) {
        const s = statsSums(b, scope);
        addSums(sum[scope], s);
        sum[scope].statsCost += s.statsCost;
      }
    }
    expect(sum.all.turns).toBeGreaterThan(sum.branch.turns);
    expect(sum.all.toolCalls).toBeGreaterThan(0);
    expect(sum.all.toolErrors).toBeGreaterThan(0);
    for (const scope of ['branch', 'all'] as const) {
      const report = summarizeUsage(usageRows(records, { scope, dayOf: utcDay }));
      expectSame(report.total, sum[scope], `library ${scope}`);
      const byModel = report.models.reduce((acc, g) => addSums(acc, g), emptySums());
      expect(byModel.tokens).toBe(report.total.tokens);
      const byDay = [...report.days.values()].reduce((acc, g) => addSums(acc, g), emptySums());
      expect(byDay.tokens + report.undated.tokens).toBe(report.total.tokens);
    }
  });

  test('an omp file is told from a pi file', async () => {
    expect((await recordOf('o', read('omp/omp-shapes.jsonl'))).usage?.agent).toBe('omp');
    expect((await recordOf('o', read('omp/omp-slotless.jsonl'))).usage?.agent).toBe('omp');
    expect((await recordOf('p', read('pi/pi-scripted.jsonl'))).usage?.agent).toBe('pi');
  });

  test('a usage without totalTokens counts its four kinds (the core rule), and no cost is "not recorded"', async () => {
    const lines = [
      JSON.stringify({ type: 'session', version: 3, id: 'u1', timestamp: '2026-03-01T23:50:00.000Z', cwd: '/p' }),
      JSON.stringify({
        type: 'message',
        id: 'a1',
        parentId: null,
        timestamp: '2026-03-01T23:55:00.000Z',
        message: { role: 'assistant', content: [], provider: 'x', model: 'y', usage: { input: 1, output: 2, cacheRead: 3, cacheWrite: 4 }, timestamp: 1 },
      }),
    ];
    const r = await recordOf('u1', bytes(lines.join('\n') + '\n'));
    const report = summarizeUsage(usageRows([r], { scope: 'all', dayOf: utcDay }));
    expect(report.total.tokens).toBe(10);
    expect(report.total.costedTurns).toBe(0);
    expect([...report.days.keys()]).toEqual(['2026-03-01']);
  });
});

describe('the index', () => {
  test('an index of the previous version (records without usage) is rebuilt from the files', async () => {
    const { disk, store } = memoryStore();
    await store.create('s1', once(bytes(sessionText('s1', 3))));
    await store.flush();
    const current = JSON.parse(new TextDecoder().decode(disk.files.get(INDEX_PATH)!.bytes));
    current.sessions = JSON.parse(JSON.stringify(await store.list()));
    expect(current.sessions[0].usage.branch.length).toBeGreaterThan(0);
    // What version 1 wrote: the same records without `usage` (and no log after it).
    for (const s of current.sessions) delete s.usage;
    delete current.log;
    disk.files.set(INDEX_PATH, { bytes: bytes(JSON.stringify({ ...current, version: 1 })), modified: 1 });
    const { createStore } = await import('../../src/storage/store.ts');
    const reopened = createStore(disk, { flushDelay: 0 });
    await reopened.settled();
    const [s] = await reopened.list();
    expect(s.usage.branch.reduce((n, b) => n + b[2], 0)).toBe(3);
  });
});
