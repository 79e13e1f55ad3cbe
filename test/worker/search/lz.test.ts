// The text chunks' compressor: whatever goes in comes out, and damaged input is refused, not looped on.
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { compress, decompress } from '../../../src/worker/search/lz.ts';

const text = (s: string) => new TextEncoder().encode(s);
// Byte arrays compared as one string (toEqual walks them element by element).
const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

test('round trip: text with repeats, long runs, nothing, and arbitrary bytes', () => {
  const cases = [
    text(''),
    text('a'),
    text('abcd'),
    text('x'.repeat(100_000)),
    text(`${'src/core/read/parse.ts: parseLine(buffer) '.repeat(3000)}tail`),
    (() => {
      // A repeat farther back than an offset reaches.
      const r = Uint8Array.from({ length: 70_000 }, (_, i) => (i * 2654435761) >>> 24);
      const b = new Uint8Array(140_000);
      b.set(r);
      b.set(r, 70_000);
      return b;
    })(),
    text(Array.from({ length: 5000 }, (_, i) => `word${(i * 7919) % 1013}`).join(' ')),
  ];
  for (const c of cases) {
    const z = compress(c);
    expect(same(decompress(z), c)).toBe(true);
  }
  // Repetitive text shrinks.
  expect(compress(cases[4]).length).toBeLessThan(cases[4].length / 10);
});

test('property: decompress(compress(x)) is x', () => {
  const chunk = fc.oneof(fc.uint8Array({ maxLength: 300 }), fc.constantFrom(text('the quick '), text('aaaa'), text('ab'), new Uint8Array(3000).fill(7)));
  fc.assert(
    fc.property(fc.array(chunk, { maxLength: 30 }), (parts) => {
      const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
      let at = 0;
      for (const p of parts) {
        all.set(p, at);
        at += p.length;
      }
      expect(same(decompress(compress(all)), all)).toBe(true);
    }),
    { numRuns: 200 },
  );
});

test('damaged input throws or gives other bytes, and always ends', () => {
  const z = compress(text('hello hello hello hello world '.repeat(200)));
  fc.assert(
    fc.property(fc.nat(z.length - 1), fc.integer({ min: 0, max: 255 }), fc.nat(z.length), (at, b, cut) => {
      const bad = z.slice(0, Math.max(1, cut));
      if (at < bad.length) bad[at] = b;
      try {
        decompress(bad);
      } catch {
        // Refused.
      }
    }),
    { numRuns: 500 },
  );
});
