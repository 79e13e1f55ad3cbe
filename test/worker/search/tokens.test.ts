// eachWord / addWords (the import's fast path for a session's words) give what words() gives.
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { addWords, eachWord, words } from '../../../src/worker/search/tokens.ts';

const texts = [
  'Read src/core/read/parse.ts: parseLine(buffer) failed 3 times; retry 123456789012 and x9',
  'ALL CAPS and MiXeD, under_scores-and-dashes; a 12345678 b 123456789',
  `${'a'.repeat(32)} ${'b'.repeat(33)} end`,
  'Café naïve Ørsted 東京 text with accents and ascii',
  'İstanbul e\u0301te\u0301 𝐀𝐁c 🎉party🎉 x\ud800y \udc00z Ω≈ç√ ١٢٣ 𝟙𝟚',
  '',
  '!!! ... ,,,',
];

test('addWords gives the distinct words of words(), in order, for ASCII and other text', () => {
  for (const t of texts) {
    const set = new Set<string>();
    addWords(t, set);
    expect([...set], t).toEqual([...new Set(words(t))]);
  }
});

test('property: eachWord gives words() of any text, repeats kept', () => {
  const unit = fc.constantFrom('a', 'Z', '9', ' ', '-', 'é', 'e\u0301', 'İ', 'ß', '東', '🎉', '𝐀', '\ud800', '\udc00', '١', '\n', '_', 'Ω', 'ﬁ');
  fc.assert(
    fc.property(fc.array(unit, { maxLength: 60 }), fc.string(), (parts, s) => {
      for (const t of [parts.join(''), s]) {
        const got: string[] = [];
        eachWord(t, (w) => got.push(w));
        expect(got).toEqual(words(t));
      }
    }),
    { numRuns: 500 },
  );
});
