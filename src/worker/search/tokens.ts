// Words as the search index and its queries see them: runs of letters and digits, lowercased and
// stripped of accents (so "café" and "cafe" meet). Paths and commands split at their punctuation
// ("src/core/parse.ts" is src, core, parse, ts). Very long runs (hashes, base64) and long numbers
// are not words anyone types, and would only swell the index.

const WORD = /[\p{L}\p{N}]+/gu;
/** Any character outside ASCII. */
export const NON_ASCII = /[^\x00-\x7f]/;
const MAX_WORD = 32;
const LONG_NUMBER = /^\d{9,}$/;
const MARKS = /\p{M}+/gu;

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

/** The words of a text, in order, normalized (repeats kept). */
export function words(text: string): string[] {
  const out: string[] = [];
  // One lowercase of the whole text; accents are stripped word by word, only where there are any.
  // (A regex match loop: V8 runs it faster than a split on the negated class.)
  const ascii = !NON_ASCII.test(text);
  for (const m of text.toLowerCase().matchAll(WORD)) {
    const w = ascii ? m[0] : normalizeWord(m[0]);
    if (isIndexable(w)) out.push(w);
  }
  return out;
}

/**
 * Adds the distinct words of a text to `into` (what `words` gives, without repeats). ASCII text, most
 * of what sessions hold, is split by character codes: the Unicode-aware regex costs several times more
 * on the megabytes an import indexes.
 */
export function addWords(text: string, into: Set<string>): void {
  if (NON_ASCII.test(text)) {
    for (const w of words(text)) into.add(w);
    return;
  }
  const lower = text.toLowerCase();
  let start = -1;
  for (let i = 0; i <= lower.length; i++) {
    const c = i < lower.length ? lower.charCodeAt(i) : 0;
    const inWord = (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
    if (inWord) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      const w = lower.slice(start, i);
      if (i - start <= MAX_WORD && !into.has(w) && isIndexable(w)) into.add(w);
      start = -1;
    }
  }
}

/** Each word of a text with where it stands in the text: [start, end) in UTF-16 units. */
export function* wordSpans(text: string): Generator<{ word: string; start: number; end: number }> {
  for (const m of text.matchAll(WORD)) {
    const start = m.index ?? 0;
    yield { word: normalizeWord(m[0]), start, end: start + m[0].length };
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
