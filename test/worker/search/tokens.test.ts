// addWords (the import's fast path for a session's distinct words) gives what words() gives, without repeats.
import { expect, test } from 'vitest';
import { addWords, words } from '../../../src/worker/search/tokens.ts';

test('addWords gives the distinct words of words(), in order, for ASCII and other text', () => {
  const texts = [
    'Read src/core/parse.ts: parseLine(buffer) failed 3 times; retry 123456789012 and x9',
    'ALL CAPS and MiXeD, under_scores-and-dashes; a 12345678 b 123456789',
    `${'a'.repeat(32)} ${'b'.repeat(33)} end`,
    'Café naïve Ørsted 東京 text with accents and ascii',
    '',
    '!!! ... ,,,',
  ];
  for (const t of texts) {
    const set = new Set<string>();
    addWords(t, set);
    expect([...set], t).toEqual([...new Set(words(t))]);
  }
});
