// The search box's language, parsed (pure): words, prefixes while typing, phrases, filters.
import { describe, expect, test } from 'vitest';
import { parseQuery } from '../../../src/worker/search/query.ts';
import { snippet } from '../../../src/worker/search/snippet.ts';
import { editDistance, words } from '../../../src/worker/search/tokens.ts';

describe('parseQuery', () => {
  test('words: normalized, the last a prefix only while typing, typos by length', () => {
    expect(parseQuery('Café parseLine').words).toEqual([
      { word: 'cafe', prefix: false, typos: 0 },
      { word: 'parseline', prefix: true, typos: 2 },
    ]);
    expect(parseQuery('parse ').words).toEqual([{ word: 'parse', prefix: false, typos: 1 }]);
    expect(parseQuery('parse', false).words[0].prefix).toBe(false);
    expect(parseQuery('src/core/parse.ts').words.map((w) => w.word)).toEqual(['src', 'core', 'parse', 'ts']);
  });

  test('phrases keep their words in order, exact', () => {
    const q = parseQuery('"Exact Phrase" more');
    expect(q.phrases).toEqual([['exact', 'phrase']]);
    expect(q.words).toEqual([
      { word: 'exact', prefix: false, typos: 0 },
      { word: 'phrase', prefix: false, typos: 0 },
      { word: 'more', prefix: true, typos: 0 },
    ]);
  });

  test('filters, quoted values, and what is not a filter', () => {
    const q = parseQuery('project:"my app" model:Claude tool:bash role:user has:error has:image has:compaction after:2026-03 before:2026-04-02 http://x.y');
    expect(q).toMatchObject({ project: ['my app'], model: ['claude'], tool: ['bash'], role: ['user'], has: ['error', 'image', 'compaction'], unknown: [] });
    expect(q.after).toBe(new Date(2026, 2, 1).getTime());
    expect(q.before).toBe(new Date(2026, 3, 2).getTime());
    expect(q.words.map((w) => w.word)).toEqual(['http', 'x', 'y']);
    expect(parseQuery('role:wizard after:soon').unknown).toEqual(['role:wizard', 'after:soon']);
  });
});

describe('tokens and snippets', () => {
  test('hashes and long numbers are not words; edit distance stops early', () => {
    expect(words('id 0123456789 a'.concat('f'.repeat(40)))).toEqual(['id']);
    expect(editDistance('compaction', 'compaktion', 2)).toBe(1);
    expect(editDistance('compaction', 'zzz', 2)).toBe(3);
  });

  test('a snippet is a window of text around the first match, whitespace folded, matches marked', () => {
    const text = `${'lead '.repeat(30)}the needle\n\nis  here ${'tail '.repeat(60)}`;
    const at = text.indexOf('needle');
    const parts = snippet(text, [[at, at + 6]]);
    expect(parts[0]).toEqual({ text: '…' });
    expect(parts.find((p) => p.mark)).toEqual({ text: 'needle', mark: true });
    expect(parts.map((p) => p.text).join('')).toContain('the needle is here tail');
    expect(parts.at(-1)).toEqual({ text: '…' });
  });
});
