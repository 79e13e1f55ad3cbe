// A session's part (part.ts): its words and postings are words() of each entry (tool names the
// session's words only), its facts and texts read back as built, and a damaged chunk is refused.
// A part with deltas (part-delta.ts), read as one or folded into one, is the part of all its entries.
import fc from 'fast-check';
import { expect, test } from 'vitest';
import type { EntryDoc } from '../../../src/worker/search/extract.ts';
import { buildPart, chunkOf, decodeChunk, decodePart, type Part, postings } from '../../../src/worker/search/part.ts';
import { buildDelta, decodeParts, foldParts } from '../../../src/worker/search/part-delta.ts';
import { words } from '../../../src/worker/search/tokens.ts';
import { TEXT_UNITS } from './text-units.ts';

const utf8 = (s: string) => new TextDecoder().decode(new TextEncoder().encode(s));
const unit = fc.constantFrom(...TEXT_UNITS, 'word', 'Parse', '123456789', 'x'.repeat(33));
const doc = fc.record({
  id: fc.string({ maxLength: 8 }),
  kind: fc.constantFrom('user', 'assistant', 'tool', 'bash', 'label') as fc.Arbitrary<EntryDoc['kind']>,
  ts: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 2 ** 42 })),
  flags: fc.integer({ min: 0, max: 7 }),
  text: fc.array(unit, { maxLength: 40 }).map((p) => p.join('')),
  tools: fc.option(fc.array(fc.constantFrom('bash', 'read', 'my_tool'), { minLength: 1, maxLength: 2 }), { nil: undefined }),
});

test('property: terms and postings are the words of each entry; facts and texts read back', () => {
  fc.assert(
    fc.property(fc.array(doc, { maxLength: 30 }), (docs) => {
      const built = buildPart(docs);
      const p = decodePart(built.words, built.facts);
      const want = new Map<string, number[]>();
      docs.forEach((d, e) => {
        for (const w of words(d.text)) {
          const l = want.get(w) ?? [];
          if (l.at(-1) !== e) l.push(e);
          want.set(w, l);
        }
      });
      for (const d of docs) for (const t of d.tools ?? []) for (const w of words(t)) if (!want.has(w)) want.set(w, []);
      expect(new Set(p.terms)).toEqual(new Set(want.keys()));
      expect(p.terms.length).toBe(want.size);
      p.terms.forEach((t, i) => expect(postings(p, i), t).toEqual(want.get(t)));
      expect(p.kinds).toEqual(docs.map((d) => d.kind));
      expect([...p.flags]).toEqual(docs.map((d) => d.flags));
      expect([...p.ts]).toEqual(docs.map((d) => d.ts));
      expect(p.tools).toEqual(docs.map((d) => d.tools ?? []));
      // Every entry's id and text from its chunk.
      const texts = new Uint8Array(built.texts);
      docs.forEach((d, e) => {
        const c = p.chunks[chunkOf(p, e)];
        const rows = decodeChunk(texts.subarray(c.from, c.to), c.sum)!;
        // Stored as UTF-8: a lone surrogate comes back as U+FFFD, as any text decoded from bytes does.
        expect(rows[e - c.first]).toEqual([utf8(d.id), utf8(d.text)]);
      });
    }),
    { numRuns: 200 },
  );
});

test('long texts are cut into chunks; a damaged chunk or facts record is refused', () => {
  const docs: EntryDoc[] = Array.from({ length: 40 }, (_, i) => ({ id: `e${i}`, kind: 'assistant', ts: i, flags: 0, text: `entry ${i} `.repeat(800) }));
  const built = buildPart(docs);
  const p = decodePart(built.words, built.facts);
  expect(p.chunks.length).toBeGreaterThan(5);
  const c = p.chunks[3];
  const bytes = built.texts.slice(c.from, c.to);
  expect(decodeChunk(bytes, c.sum)?.[0][0]).toBe(`e${c.first}`);
  bytes[Math.floor(bytes.length / 2)] ^= 1;
  expect(decodeChunk(bytes, c.sum)).toBeNull();
  expect(() => decodePart(built.words, built.facts.slice(0, built.facts.length - 3))).toThrow();
  expect(() => decodePart(`${built.words} extra`, built.facts)).toThrow();
});

// What a query reads of a part: terms, postings, each entry's facts, and each entry's id and text from its record's chunk.
function readBack(p: Part, texts: readonly Uint8Array[]) {
  const rows = p.kinds.map((_, e) => {
    const c = p.chunks[chunkOf(p, e)];
    return decodeChunk(texts[c.rec].subarray(c.from, c.to), c.sum)?.[e - c.first];
  });
  return { terms: p.terms, postings: p.terms.map((_, t) => postings(p, t)), kinds: p.kinds, flags: [...p.flags], ts: [...p.ts], tools: p.tools, rows };
}

test('property: a part with deltas, read as one or folded, reads back as the part of all its entries', () => {
  fc.assert(
    fc.property(fc.array(doc, { maxLength: 30 }), fc.array(fc.integer({ min: 0, max: 30 }), { maxLength: 4 }), (docs, cuts) => {
      const at = [...new Set([0, ...cuts.map((c) => Math.min(c, docs.length)), docs.length])].sort((a, b) => a - b);
      const base = buildPart(docs.slice(0, at[1] ?? 0));
      let words = base.words;
      const deltas = [];
      for (let k = 1; k + 1 < at.length; k++) {
        const d = buildDelta(words, at[k], docs.slice(at[k], at[k + 1]));
        deltas.push(d);
        words = [words, d.words].filter(Boolean).join(' ');
      }
      const whole = buildPart(docs);
      const want = readBack(decodePart(whole.words, whole.facts), [whole.texts]);
      const read = decodeParts(decodePart(base.words, base.facts), deltas);
      expect(readBack(read, [base.texts, ...deltas.map((d) => d.texts)])).toEqual(want);
      expect(words).toBe(whole.words);
      const folded = foldParts(read, [base.texts, ...deltas.map((d) => d.texts)]);
      expect(readBack(decodePart(folded.words, folded.facts), [folded.texts])).toEqual(want);
    }),
    { numRuns: 150 },
  );
});
