// The snippet of a hit is made from a window around its first match (hits.ts `hitSnippet`): it must be
// the snippet the whole text gives, wherever the match stands in a long entry.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { hitSnippet, lookFor, matchersFor } from '../../../src/worker/search/hits.ts';
import { parseQuery } from '../../../src/worker/search/query.ts';
import { matchSpans, phrasePattern, snippet } from '../../../src/worker/search/snippet.ts';
import { foldText, words } from '../../../src/worker/search/tokens.ts';

const VOCAB = ['parse', 'parser', 'parseline', 'buffer', 'Buffer', 'café', 'cafe', 'summary', 'Summarize', 'x', 'tool', 'İstanbul', 'e\u0301t\u00e9', 'ab12'];
const GLUE = [' ', '  ', '\n', '. ', ', ', '/', '-', '(', ') ', '\t'];

function whole(text: string, input: string) {
  const q = parseQuery(input);
  const matchers = matchersFor(q, [...new Set(words(text))]);
  const phrases = q.phrases.map(phrasePattern);
  return { q, matchers, phrases, expected: snippet(text, matchSpans(text, matchers, phrases).spans) };
}

function windowed(text: string, input: string) {
  const { q, matchers, phrases, expected } = whole(text, input);
  const looks = matchers.map((m, i) => lookFor(q.words[i], m));
  return { got: hitSnippet(text, foldText(text), looks, matchers, phrases), expected };
}

describe('hitSnippet', () => {
  test('a match deep in a long entry: the window gives the whole text’s snippet', () => {
    const filler = Array.from({ length: 3000 }, (_, i) => `word${i % 97}`).join(' ');
    const text = `${filler} the parseLine buffer overflowed ${filler}`;
    const { got, expected } = windowed(text, 'parseline buff');
    expect(got).toEqual(expected);
    expect(got.filter((p) => p.mark).map((p) => p.text)).toEqual(['parseLine', 'buffer']);
  });

  test('property: for any text and query, the same snippet as from the whole text', () => {
    const text = fc
      .array(fc.tuple(fc.constantFrom(...VOCAB), fc.constantFrom(...GLUE), fc.nat(40)), { maxLength: 400 })
      .map((parts) => parts.map(([w, g, n]) => (n === 0 ? 'z'.repeat(300) : n === 1 ? 'q'.repeat(40) : w) + g).join(''));
    const query = fc.oneof(
      fc.array(fc.constantFrom(...VOCAB, 'pars', 'summ', 'bufer', 'qq'), { minLength: 1, maxLength: 3 }).map((ws) => ws.join(' ')),
      fc.tuple(fc.constantFrom(...VOCAB), fc.constantFrom(...VOCAB)).map(([a, b]) => `"${a} ${b}"`),
    );
    fc.assert(
      fc.property(text, query, (t, input) => {
        const { got, expected } = windowed(t, input);
        expect(got).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});
