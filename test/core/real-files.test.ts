// Every real session file in fixtures/real/ (copied byte for byte from public repositories, see
// SOURCES.md) through the whole core: parse, branch, context, totals, stats and the reader's items
// for every entry of every branch. A real file written by pi is a valid file: no problem may be
// reported for any of them (none of the 16 deserves one; a file that does must be listed in
// DESERVED with the exact problem, line and why).
import { modelMessageSchema } from 'ai';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { branch, context, indexEnvelopes, leaves, parse, totals, usageTotal } from '../../src/core/index.ts';
import { buildContextView, buildOutline, buildStats, openBranch, openSource, windowOf } from '../../src/core/view/index.ts';

const dir = new URL('../../fixtures/real/', import.meta.url);
const names = readdirSync(dir)
  .filter((n) => n.endsWith('.jsonl'))
  .sort();
const bytesOf = (name: string) => new Uint8Array(readFileSync(new URL(name, dir)));
const leafIds = (s: ReturnType<typeof parse>) => leaves(s).map((e) => e.id as string);

/** Problems a real file deserves, as [code, line], with the reason. None does today. */
const DESERVED: Record<string, Array<[string, number]>> = {};

test('all 16 real files are here, each named in SOURCES.md', () => {
  expect(names).toHaveLength(16);
  const sources = readFileSync(new URL('SOURCES.md', dir), 'utf8');
  for (const name of names) expect(sources, name).toContain(`\`${name}\``);
});

describe.each(names)('real file %s', (name) => {
  const bytes = bytesOf(name);
  const session = parse(bytes, { file: name });

  test('parses as a session with only the problems it deserves (validated and on the fast path)', () => {
    expect(session.isSession).toBe(true);
    expect(session.problems.map((p) => [p.code, p.line])).toEqual(DESERVED[name] ?? []);
    const index = indexEnvelopes(bytes, { file: name });
    expect(index.problems.map((p) => [p.code, p.line])).toEqual(DESERVED[name] ?? []);
    expect(index.ids).toEqual(session.entries.map((e) => e.id));
  });

  test('every branch gives a context the AI SDK accepts, and the Stats screen agrees with the core totals', () => {
    const all = session.entries;
    for (const leaf of leafIds(session)) {
      const path = branch(session, leaf);
      const messages = context(path);
      for (const m of messages) expect(modelMessageSchema.safeParse(m).success, JSON.stringify(m).slice(0, 200)).toBe(true);
      const stats = buildStats(all, path);
      const core = totals(path);
      expect(stats.branch.tokens).toBe(core.tokens);
      expect(stats.branch.output).toBe(core.output);
      expect(stats.branch.cost).toBeCloseTo(core.cost, 9);
      expect(buildStats(all, all).file.tokens).toBe(totals(all).tokens);
      const view = buildContextView(path, leaf, () => null, null);
      expect(view.messages.length).toBe(messages.length);
    }
  });

  test('the reader builds an item for every entry of every branch, each shown as what it is', () => {
    const source = openSource(name, bytes);
    const outline = buildOutline(source, new Set());
    expect(outline.reduce((n, s) => n + s.count, 0)).toBe(source.count);
    for (const leaf of leafIds(session)) {
      const b = openBranch(source, leaf);
      expect(b.problems).toEqual([]);
      const items = windowOf(source, b, 'all', 0, b.branch.length);
      expect(items).toHaveLength(b.branch.length);
      // A real pi file holds no shape the reader does not know.
      expect(items.filter((i) => i.kind === 'unknown').map((i) => i.line)).toEqual([]);
      for (const item of items) {
        if (item.kind !== 'assistant' || !item.usage) continue;
        const message = session.entries[session.entryLines.indexOf(item.line)]?.message as { usage?: Record<string, number> };
        // The per-turn line and Stats read one rule (usageTotal), never "0 tokens" for a turn that used some.
        expect(item.usage.totalTokens).toBe(usageTotal(message.usage));
        const buckets = item.usage.input + item.usage.output + item.usage.cacheRead + item.usage.cacheWrite;
        if (buckets > 0) expect(item.usage.totalTokens).toBeGreaterThan(0);
      }
    }
  });
});

test('turn #6 of pi-mono-large-session (old pi: usage without totalTokens) reads 3 + 191 + 0 + 1,684 = 1,878', () => {
  const bytes = bytesOf('pi-mono-large-session.jsonl');
  const source = openSource('large', bytes);
  const b = openBranch(source, source.index.leafId);
  const turn = windowOf(source, b, 'all', 0, b.branch.length).find((i) => i.line === 6);
  expect(turn?.kind).toBe('assistant');
  expect(turn?.kind === 'assistant' && turn.usage?.totalTokens).toBe(1878);
  const session = parse(bytes);
  expect(buildStats(session.entries, branch(session)).series.find((s) => s.turn === 2)?.tokens).toBe(3 + 1684);
});
