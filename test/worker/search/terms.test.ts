// The term table (terms.ts) gives each entry's words exactly as words() does, and each word's
// entries, whatever the text: non-ASCII, long words and numbers at their limits, words whose hashes
// collide, and sessions with enough distinct words to grow every table.
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { TermTable } from '../../../src/worker/search/terms.ts';
import { words } from '../../../src/worker/search/tokens.ts';
import { TEXT_UNITS } from './text-units.ts';

// What the table should hold: each distinct word of the texts (first met first) and its entries.
function expected(texts: string[]): Map<string, number[]> {
  const want = new Map<string, number[]>();
  texts.forEach((t, e) => {
    for (const w of words(t)) {
      const l = want.get(w) ?? [];
      if (l.at(-1) !== e) l.push(e);
      want.set(w, l);
    }
  });
  return want;
}

function table(texts: string[]): Map<string, number[]> {
  const t = new TermTable();
  texts.forEach((s, e) => t.addText(s, e));
  const got = new Map<string, number[]>();
  t.terms.forEach((w, i) => {
    const l: number[] = [];
    t.forEachPosting(i, (e) => l.push(e));
    expect(l.length).toBe(t.size(i));
    got.set(w, l);
  });
  expect(got.size, 'terms are distinct').toBe(t.terms.length);
  return got;
}

const check = (texts: string[]) => {
  const got = table(texts);
  const want = expected(texts);
  expect([...got.keys()]).toEqual([...want.keys()]);
  expect(got).toEqual(want);
};

test('words at their limits: 32 and 33 letters, 8 and 9 digits, digits in words, case', () => {
  check([
    `${'a'.repeat(32)} ${'b'.repeat(33)} ${'C'.repeat(32)}`,
    '12345678 123456789 0123456789x x123456789 1234567890123 v2 IPv6 ipv6 Ipv6',
    'parseLine(buffer) src/core/read/parse.ts PARSELINE parseline',
    '',
    '... --- !!!',
  ]);
});

test('non-ASCII: accents, a word begun or ended beyond ASCII, other planes, marks, case that changes length', () => {
  check([
    'Café cafe CAFÉ naïve naive caféX Xcafé ÉCOLE école',
    "İstanbul istanbul e\u0301te\u0301 ete Ωmega ωMEGA ΟΔΟΣ οδος ΟΔΟΣ's",
    '東京 東京タワー 𝐀𝐁c 🎉party🎉 x\ud800y \udc00z ١٢٣ 𝟙𝟚 ﬁle Kelvin \u212a',
    `${'é'.repeat(33)} ${'é'.repeat(32)} ١٢٣٤٥٦٧٨٩ 123456789é`,
  ]);
});

test('words whose hashes collide are kept apart (same length and not)', () => {
  // Pairs found by search: the same 32-bit hash as the table mixes it.
  check(['7zmbqi avx9j6', 'avx9j6', '7zmbqi 7zmbqi', 'c2vjisq hgefcbor mm1q47389 6ituop46p', 'hgefcbor 6ituop46p']);
});

test('planted words in a session of 20,000 distinct words are found exactly where they were planted', () => {
  // Enough distinct words to grow the slots, the codes, the per-term arrays and the postings' links.
  const texts = Array.from({ length: 400 }, (_, e) => Array.from({ length: 60 }, (_, k) => `w${(e * 53 + k * 7919) % 20000}x`).join(' '));
  texts[17] += ' plantedalpha';
  texts[250] += ' plantedalpha Plantedbeta';
  texts[399] += ' PLANTEDBETA plantédgamma';
  const got = table(texts);
  expect(got.get('plantedalpha')).toEqual([17, 250]);
  expect(got.get('plantedbeta')).toEqual([250, 399]);
  expect(got.get('plantedgamma')).toEqual([399]);
  expect(got).toEqual(expected(texts));
});

test('property: any texts give the words and entries of words()', () => {
  const unit = fc.constantFrom(...TEXT_UNITS, '12345678', '.', 'word', 'Word', 'x'.repeat(16), '7zmbqi', 'avx9j6');
  const text = fc.oneof(
    fc.array(unit, { maxLength: 30 }).map((p) => p.join('')),
    fc.string({ unit: 'grapheme', maxLength: 30 }),
    fc.string({ maxLength: 30 }),
  );
  fc.assert(fc.property(fc.array(text, { maxLength: 12 }), check), { numRuns: 400 });
});
