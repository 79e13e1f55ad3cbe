// Words as the search index and its queries see them: runs of letters and digits, lowercased and
// stripped of accents (so "café" and "cafe" meet). Paths and commands split at their punctuation
// ("src/core/read/parse.ts" is src, core, parse, ts). Very long runs (hashes, base64) and long numbers
// are not words anyone types, and would only swell the index.
// Chinese and Japanese are written without spaces between words, so a run of their characters is no
// word: the index keeps each pair of neighbouring characters in it and each character alone, and a
// query's run is looked up as its pairs (all must be there), so any word inside a sentence is found
// ("记住" in "我叫张三，请记住"), with no dictionary (docs/capabilities.md, Search).

const WORD = /[\p{L}\p{N}]+/gu;
/** Any character outside ASCII. */
export const NON_ASCII = /[^\x00-\x7f]/;
/** The longest word kept (longer runs are hashes, base64…). */
export const MAX_WORD = 32;
const LONG_NUMBER = /^\d{9,}$/;
const MARKS = /\p{M}+/gu;

/** Han, hiragana and katakana (with the marks they share, such as ー and 々): written without spaces. */
const CJK_CHAR = /^[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}]$/u;
const ANY_CJK = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}]/u;

/** A word as it is indexed and matched: lowercase, without combining marks. */
export function normalizeWord(word: string): string {
  const lower = word.toLowerCase();
  // Only text that has non-ASCII letters pays for NFD.
  return NON_ASCII.test(lower) ? lower.normalize('NFD').replace(MARKS, '') : lower;
}

/** Whether a normalized word is kept by the index. */
export function isIndexable(word: string): boolean {
  return word.length > 0 && word.length <= MAX_WORD && !LONG_NUMBER.test(word);
}

/** A whole text as words are normalized (lowercase, no combining marks), for finding index words in it. */
export function foldText(text: string): string {
  const lower = text.toLowerCase();
  return NON_ASCII.test(lower) ? lower.normalize('NFD').replace(MARKS, '') : lower;
}

/**
 * Calls `fn` with the terms of one run of letters and digits (lowercased, not yet normalized), and
 * where each stands in it: the run itself, or, when it holds Chinese or Japanese characters, its
 * other pieces as words and each CJK run as its pairs of characters (and, for the index, each
 * character alone; a run of one character is that character).
 */
export function eachPiece(raw: string, fn: (term: string, start: number, end: number) => void, singles = true): void {
  if (!ANY_CJK.test(raw)) {
    const w = normalizeWord(raw);
    if (isIndexable(w)) fn(w, 0, raw.length);
    return;
  }
  const n = raw.length;
  let plain = -1;
  const flush = (end: number) => {
    if (plain < 0) return;
    const w = normalizeWord(raw.slice(plain, end));
    if (isIndexable(w)) fn(w, plain, end);
    plain = -1;
  };
  // The CJK run being read: where each of its characters starts.
  const run: number[] = [];
  const flushRun = (end: number) => {
    run.push(end);
    const chars = run.length - 1;
    for (let k = 0; k < chars; k++) {
      if (singles || chars === 1) fn(normalizeWord(raw.slice(run[k], run[k + 1])), run[k], run[k + 1]);
      if (k + 2 <= chars) fn(normalizeWord(raw.slice(run[k], run[k + 2])), run[k], run[k + 2]);
    }
    run.length = 0;
  };
  for (let i = 0; i < n; ) {
    const c = raw.charCodeAt(i);
    const len = c >= 0xd800 && c <= 0xdbff && i + 1 < n && (raw.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
    if (c >= 0x2e80 && CJK_CHAR.test(raw.slice(i, i + len))) {
      flush(i);
      run.push(i);
    } else {
      if (run.length) flushRun(i);
      if (plain < 0) plain = i;
    }
    i += len;
  }
  if (run.length) flushRun(n);
  flush(n);
}

/** The words of a text as the index keeps them, in order, normalized (repeats kept). */
export function words(text: string): string[] {
  const out: string[] = [];
  // One lowercase of the whole text; accents are stripped word by word, only where there are any.
  // (A regex match loop: V8 runs it faster than a split on the negated class.)
  const ascii = !NON_ASCII.test(text);
  for (const m of text.toLowerCase().matchAll(WORD)) {
    if (ascii) {
      if (isIndexable(m[0])) out.push(m[0]);
    } else eachPiece(m[0], (w) => out.push(w));
  }
  return out;
}

/** The words of a query as the index is asked for them: a CJK run is its pairs of characters only. */
export function queryWords(text: string): string[] {
  const out: string[] = [];
  for (const m of text.toLowerCase().matchAll(WORD)) eachPiece(m[0], (w) => out.push(w), false);
  return out;
}

/** The runs of letters and digits of a text, normalized, CJK runs whole (a phrase's words, matched in the text). */
export function plainWords(text: string): string[] {
  return Array.from(text.toLowerCase().matchAll(WORD), (m) => normalizeWord(m[0])).filter((w) => w.length > 0);
}

/** Whether a character (a string of one) is Chinese or Japanese. */
export const isCjk = (ch: string): boolean => ch.charCodeAt(0) >= 0x2e80 && CJK_CHAR.test(ch);

// Whether each UTF-16 unit is part of a word: ASCII by table, the rest looked up once by its class.
const UNIT = new Uint8Array(65536);
for (let c = 0; c < 128; c++) UNIT[c] = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) ? 1 : 2;
/** One letter or digit (a string of one character: a unit, or a surrogate pair). */
export const ONE_WORD_CHAR = /^[\p{L}\p{N}]$/u;
/** Whether a UTF-16 unit (not a surrogate of a pair) is a letter or digit. */
export const isWordUnit = (c: number): boolean => {
  let k = UNIT[c];
  if (k === 0) k = UNIT[c] = ONE_WORD_CHAR.test(String.fromCharCode(c)) ? 1 : 2;
  return k === 1;
};

/**
 * Calls `fn` with each word of a text, in order, normalized and indexable (what `words` gives, repeats
 * kept). One pass over the lowercased text by character codes: the Unicode-aware regex costs several
 * times more on the megabytes an import indexes; only a word with a character beyond ASCII is
 * normalized (and its characters' classes are looked up once each).
 */
export function eachWord(text: string, fn: (word: string) => void): void {
  const lower = text.toLowerCase();
  const n = lower.length;
  let start = -1;
  let wide = false;
  const emit = (end: number) => {
    if (!wide) {
      if (end - start <= MAX_WORD) {
        const w = lower.slice(start, end);
        if (end - start < 9 || !LONG_NUMBER.test(w)) fn(w);
      }
    } else eachPiece(lower.slice(start, end), (w) => fn(w));
    start = -1;
    wide = false;
  };
  for (let i = 0; i < n; i++) {
    const c = lower.charCodeAt(i);
    if (c < 128) {
      if (UNIT[c] === 1) {
        if (start < 0) start = i;
      } else if (start >= 0) emit(i);
      continue;
    }
    // A surrogate pair is one character (a letter of another plane, or an emoji).
    const pair = c >= 0xd800 && c <= 0xdbff && i + 1 < n && (lower.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    const inWord = pair ? ONE_WORD_CHAR.test(lower.slice(i, i + 2)) : isWordUnit(c);
    if (inWord) {
      if (start < 0) start = i;
      wide = true;
    } else if (start >= 0) emit(i);
    if (pair) i++;
  }
  if (start >= 0) emit(n);
}

/** Adds the distinct words of a text to `into` (what `words` gives, without repeats). */
export function addWords(text: string, into: Set<string>): void {
  eachWord(text, (w) => {
    into.add(w);
  });
}

/** Each word of a text with where it stands in the text: [start, end) in UTF-16 units. */
export function* wordSpans(text: string): Generator<{ word: string; start: number; end: number }> {
  for (const m of text.matchAll(WORD)) {
    const start = m.index ?? 0;
    if (!ANY_CJK.test(m[0])) {
      yield { word: normalizeWord(m[0]), start, end: start + m[0].length };
      continue;
    }
    const pieces: Array<{ word: string; start: number; end: number }> = [];
    eachPiece(m[0], (word, s, e) => pieces.push({ word, start: start + s, end: start + e }));
    yield* pieces;
  }
}

/** Levenshtein distance, giving up (returning max + 1) once it must exceed `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      row.push(v);
      best = Math.min(best, v);
    }
    if (best > max) return max + 1;
    prev = row;
  }
  return prev[b.length];
}

/** How many typos a query word forgives: none under 5 letters, one up to 8, two beyond. */
export function typosAllowed(word: string): number {
  return word.length < 5 ? 0 : word.length <= 8 ? 1 : 2;
}
