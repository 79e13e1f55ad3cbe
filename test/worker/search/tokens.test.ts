// eachWord / addWords (the import's fast path for a session's words) give what words() gives.
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { addWords, eachWord, queryWords, wordSpans, words } from '../../../src/worker/search/tokens.ts';
import { TEXT_UNITS } from './text-units.ts';

const texts = [
  'Read src/core/read/parse.ts: parseLine(buffer) failed 3 times; retry 123456789012 and x9',
  'ALL CAPS and MiXeD, under_scores-and-dashes; a 12345678 b 123456789',
  `${'a'.repeat(32)} ${'b'.repeat(33)} end`,
  'Café naïve Ørsted 東京 text with accents and ascii',
  '我叫张三，请记住 abc中文def コーヒーを飲みます 𠀀𠀁',
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
  const unit = fc.constantFrom(...TEXT_UNITS);
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

test('Chinese and Japanese runs are indexed as their characters and pairs of characters; a query asks for the pairs', () => {
  // Pairs and single characters of "请记住", the words on either side of a run, kana folded as accents are.
  expect(words('我叫张三，请记住')).toEqual(['我', '我叫', '叫', '叫张', '张', '张三', '三', '请', '请记', '记', '记住', '住']);
  expect(words('abc中文def')).toEqual(['abc', '中', '中文', '文', 'def']);
  expect(queryWords('请记住')).toEqual(['请记', '记住']);
  expect(queryWords('记住 abc')).toEqual(['记住', 'abc']);
  expect(queryWords('记')).toEqual(['记']);
  // Every pair a query asks for is among the words of a text holding it (the Japanese long-vowel mark is part of the run).
  const text = '今日はコーヒーを飲みますか？我叫张三，请记住。';
  for (const q of ['コーヒー', '飲みます', '记住', '张三', 'ーを']) for (const w of queryWords(q)) expect(words(text), `${q}: ${w}`).toContain(w);
  // Where each piece stands: a pair spans its two characters of the original text.
  const spans = [...wordSpans('我叫张三，请记住')].filter((s) => s.word === '记住');
  expect(spans).toEqual([{ word: '记住', start: 6, end: 8 }]);
});
