import { describe, expect, it } from 'vitest';
import { splitMatches } from '../../src/ui/models/highlight.ts';

describe('search snippet marks', () => {
  it('cuts a snippet around every match, case-insensitively, keeping the text as written', () => {
    expect(splitMatches('…the Negative heights and negative tides…', 'negative')).toEqual([
      ['…the ', false],
      ['Negative', true],
      [' heights and ', false],
      ['negative', true],
      [' tides…', false],
    ]);
  });

  it('keeps markup as plain text pieces (the page renders them as text nodes)', () => {
    expect(splitMatches('<b onmouseover=x>bold</b>', 'bold')).toEqual([
      ['<b onmouseover=x>', false],
      ['bold', true],
      ['</b>', false],
    ]);
  });

  it('marks nothing for an empty query or a text whose lower case changes length', () => {
    expect(splitMatches('abc', '  ')).toEqual([['abc', false]]);
    expect(splitMatches('İstanbul x', 'x')).toEqual([['İstanbul x', false]]);
  });
});
