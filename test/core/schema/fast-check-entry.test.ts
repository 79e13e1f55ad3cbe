import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { EntrySchema, parse } from '../../../src/core/index.ts';
import { isSurelyValid } from '../../../src/core/schema/fast-check-entry.ts';
import { fixtureFiles } from '../helpers.ts';

const entries = fixtureFiles().flatMap((f) => parse(new Uint8Array(readFileSync(f)), { validate: false }).entries);
const zodSays = (x: unknown) => EntrySchema.safeParse(x).success;

// Every path to a value inside an object, so a mutation can reach deep fields.
function paths(x: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (x && typeof x === 'object') {
    for (const [k, v] of Object.entries(x)) {
      const p = [...prefix, Array.isArray(x) ? Number(k) : k];
      out.push(p);
      if (out.length < 400) paths(v, p, out);
    }
  }
  return out;
}

function mutate(entry: unknown, path: (string | number)[], value: unknown, remove: boolean): unknown {
  const copy = structuredClone(entry) as Record<string | number, unknown>;
  let at: Record<string | number, unknown> = copy;
  for (const k of path.slice(0, -1)) at = at[k] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (remove) delete at[last];
  else at[last] = value;
  return copy;
}

describe('isSurelyValid (the pre-check before zod)', () => {
  test('is never looser than zod on any fixture entry, and takes most of them', () => {
    let taken = 0;
    for (const entry of entries) {
      if (isSurelyValid(entry)) {
        taken++;
        expect(zodSays(entry)).toBe(true);
      }
    }
    expect(taken).toBeGreaterThan(entries.length / 2);
  });

  test('is never looser than zod on random mutations of real entries', () => {
    const samples = entries
      .filter(isSurelyValid)
      .filter((_, i) => i % 7 === 0)
      .slice(0, 300);
    fc.assert(
      fc.property(fc.nat(), fc.nat(), fc.jsonValue({ maxDepth: 2 }), fc.boolean(), (i, j, value, remove) => {
        const entry = samples[i % samples.length];
        const all = paths(entry);
        const mutated = mutate(entry, all[j % all.length], value, remove);
        if (isSurelyValid(mutated)) expect(zodSays(mutated)).toBe(true);
      }),
      { numRuns: 3000, seed: 7 },
    );
  });

  test('is never looser than zod on random mutations of compactions, summaries, labels, extension entries and bash messages', () => {
    const rare = new Set(['compaction', 'branch_summary', 'custom', 'custom_message', 'label', 'session_info']);
    const samples = entries.filter(
      (e) =>
        isSurelyValid(e) && (rare.has(e.type) || (e.type === 'message' && (e as unknown as { message: { role: string } }).message.role === 'bashExecution')),
    );
    expect(new Set(samples.map((e) => (e.type === 'message' ? 'bash' : e.type))).size).toBe(rare.size + 1);
    fc.assert(
      fc.property(fc.nat(), fc.nat(), fc.jsonValue({ maxDepth: 2 }), fc.boolean(), (i, j, value, remove) => {
        const entry = samples[i % samples.length];
        const all = paths(entry);
        const mutated = mutate(entry, all[j % all.length], value, remove);
        if (isSurelyValid(mutated)) expect(zodSays(mutated)).toBe(true);
      }),
      { numRuns: 2000, seed: 11 },
    );
  });

  test('hands odd shapes to zod', () => {
    const base = { type: 'message', id: 'a', parentId: null, timestamp: 't' };
    expect(isSurelyValid({ ...base, message: { role: 'user', content: 'x', attachments: [] } })).toBe(false);
    expect(isSurelyValid({ ...base, message: { role: 'developer', content: 'x' } })).toBe(false);
    expect(
      isSurelyValid({
        ...base,
        message: { role: 'assistant', content: [{ type: 'image', data: 'x', mimeType: 'y' }], provider: 'p', model: 'm', stopReason: 'stop' },
      }),
    ).toBe(false);
    expect(isSurelyValid({ ...base, message: { role: 'assistant', content: [], provider: 'p', model: 'm', stopReason: 'stop' } })).toBe(true);
  });
});
