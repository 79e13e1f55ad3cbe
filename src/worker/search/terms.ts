// A session's distinct words and, for each, the entries holding it (its postings), gathered as the
// index's part is built. Each text is read once by character codes, with the rules of tokens.ts
// `eachWord` (the same words, property-tested): an ASCII word is looked up by a hash of its codes in
// an open-addressed table of the session's terms, so a word met again (most are) makes no string and
// costs no Map lookup; only a new term is sliced out. A word with a character beyond ASCII is
// normalized and split as `eachPiece` does (Chinese and Japanese runs into pairs of characters) and
// looked up as a string. Postings are chains in typed arrays
// (no array per term), each entry counted once per term.
import { eachPiece, eachWord, isWordUnit, MAX_WORD, ONE_WORD_CHAR } from './tokens.ts';

const FNV = 0x811c9dc5 | 0;
const PRIME = 0x01000193;
// The ASCII characters of words once lowercased: a–z, 0–9.
const ASCII_WORD = new Uint8Array(128);
for (let c = 0; c < 128; c++) ASCII_WORD[c] = (c >= 97 && c <= 122) || (c >= 48 && c <= 57) ? 1 : 0;
// Long ASCII numbers are not words (tokens.ts LONG_NUMBER: nine digits or more).
const LONG_NUMBER_DIGITS = 9;

const grow = (a: Int32Array<ArrayBuffer>, n: number): Int32Array<ArrayBuffer> => {
  if (n <= a.length) return a;
  const b = new Int32Array(Math.max(n, a.length * 2));
  b.set(a);
  return b;
};

/** The terms of a session's entries, in the order first met, and their postings. */
export class TermTable {
  /** The distinct words, in the order first met (term i). */
  readonly terms: string[] = [];
  private hashes = new Int32Array(256);
  // Each ASCII term's codes, at `codeAt[t]` in `codes` (-1 for a term with other characters).
  private codes = new Uint8Array(4096);
  private codeAt = new Int32Array(256);
  private codeLen = new Int32Array(256);
  private codeEnd = 0;
  // Term index + 1 by slot (0: empty); kept at most half full.
  private slots = new Int32Array(512);
  private mask = 511;
  // Per term: the last entry posted, its first and last link, how many links.
  private lastDoc = new Int32Array(256);
  private head = new Int32Array(256);
  private tail = new Int32Array(256);
  private count = new Int32Array(256);
  // Per link: the entry, and the term's next link (-1 at the end).
  private linkDoc = new Int32Array(1024);
  private linkNext = new Int32Array(1024);
  private links = 0;
  // Each word with characters beyond ASCII as read, and its term (-1: not kept) or terms: normalized once.
  private wide = new Map<string, number | number[]>();

  /**
   * Posts entry `doc` for every word of `text` (entries are added in ascending order). Separators
   * and a word's ASCII run are each read in a tight loop of their own; a word that has (or starts
   * with) a character beyond ASCII is read to its end and normalized whole.
   */
  addText(text: string, doc: number): void {
    const lower = text.toLowerCase();
    const n = lower.length;
    let i = 0;
    while (i < n) {
      let c = lower.charCodeAt(i);
      if (c < 128 && ASCII_WORD[c] === 0) {
        i++;
        continue;
      }
      const start = i;
      let h = FNV;
      let digits = true;
      while (c < 128 && ASCII_WORD[c] === 1) {
        h = Math.imul(h ^ c, PRIME);
        if (c > 57) digits = false;
        if (++i === n) break;
        c = lower.charCodeAt(i);
      }
      if (i === n || c < 128) {
        this.asciiWord(lower, start, i, digits, h, doc);
        continue;
      }
      // A character beyond ASCII at i: the word goes on (or starts) if it is a letter or digit.
      let k = wordUnits(lower, i, n);
      if (k === 0) {
        if (i > start) this.asciiWord(lower, start, i, digits, h, doc);
        i++;
        continue;
      }
      while (k > 0) {
        i += k;
        k = i < n ? wordUnits(lower, i, n) : 0;
      }
      const raw = lower.slice(start, i);
      let t = this.wide.get(raw);
      if (t === undefined) {
        // Its terms: the word normalized, or the pieces of a word with Chinese or Japanese in it.
        const ts: number[] = [];
        eachPiece(raw, (w) => {
          ts.push(this.intern(w));
        });
        t = ts.length === 1 ? ts[0] : ts.length === 0 ? -1 : ts;
        this.wide.set(raw, t);
      }
      if (typeof t === 'number') {
        if (t >= 0) this.post(t, doc);
      } else for (const k of t) this.post(k, doc);
    }
  }

  /** Makes the words of `text` terms without posting them (a session's tool names). */
  addTerms(text: string): void {
    eachWord(text, (w) => {
      this.intern(w);
    });
  }

  /** Makes `terms` (as a table made them, in its order) terms 0, 1, …, with no postings: a table that goes on from another's words. */
  seed(terms: readonly string[]): void {
    for (const w of terms) this.intern(w);
  }

  /** How many entries hold term t. */
  size(t: number): number {
    return this.count[t];
  }

  /** Calls `fn` with each entry holding term t, ascending. */
  forEachPosting(t: number, fn: (doc: number) => void): void {
    for (let k = this.count[t] ? this.head[t] : -1; k >= 0; k = this.linkNext[k]) fn(this.linkDoc[k]);
  }

  // The ASCII word [start, end) of `lower`; h its codes' hash, `digits` whether it is all digits.
  private asciiWord(lower: string, start: number, end: number, digits: boolean, h: number, doc: number): void {
    const len = end - start;
    if (len > MAX_WORD || (digits && len >= LONG_NUMBER_DIGITS)) return;
    const mixed = h ^ (h >>> 16);
    const { slots, hashes, codeLen, mask } = this;
    let s = mixed & mask;
    for (;;) {
      const t = slots[s] - 1;
      if (t < 0) break;
      if (hashes[t] === mixed && codeLen[t] === len && this.sameCodes(t, lower, start, len)) {
        this.post(t, doc);
        return;
      }
      s = (s + 1) & mask;
    }
    this.post(this.insert(lower.slice(start, end), mixed, s), doc);
  }

  // The term of word w (made when new).
  private intern(w: string): number {
    let h = FNV;
    for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), PRIME);
    const mixed = h ^ (h >>> 16);
    let s = mixed & this.mask;
    for (;;) {
      const t = this.slots[s] - 1;
      if (t < 0) return this.insert(w, mixed, s);
      if (this.hashes[t] === mixed && this.terms[t] === w) return t;
      s = (s + 1) & this.mask;
    }
  }

  // Whether ASCII term t (of len characters) is the len codes of `text` from `start`.
  private sameCodes(t: number, text: string, start: number, len: number): boolean {
    const at = this.codeAt[t];
    const codes = this.codes;
    for (let j = 0; j < len; j++) if (codes[at + j] !== text.charCodeAt(start + j)) return false;
    return true;
  }

  private insert(w: string, mixed: number, slot: number): number {
    const t = this.terms.length;
    this.terms.push(w);
    if (t >= this.hashes.length) {
      const n = t + 1;
      this.hashes = grow(this.hashes, n);
      this.lastDoc = grow(this.lastDoc, n);
      this.head = grow(this.head, n);
      this.tail = grow(this.tail, n);
      this.count = grow(this.count, n);
      this.codeAt = grow(this.codeAt, n);
      this.codeLen = grow(this.codeLen, n);
    }
    this.codeAt[t] = this.keepCodes(w);
    // A term with characters beyond ASCII is never matched by codes (-1: no ASCII word has that length).
    this.codeLen[t] = this.codeAt[t] < 0 ? -1 : w.length;
    this.hashes[t] = mixed;
    this.lastDoc[t] = -1;
    this.count[t] = 0;
    this.slots[slot] = t + 1;
    if (2 * (t + 1) > this.slots.length) this.rehash();
    return t;
  }

  // Copies an ASCII word's codes into `codes`; where they start, or -1 for a word with other characters.
  private keepCodes(w: string): number {
    const at = this.codeEnd;
    if (at + w.length > this.codes.length) {
      const next = new Uint8Array(Math.max(this.codes.length * 2, at + w.length));
      next.set(this.codes);
      this.codes = next;
    }
    for (let j = 0; j < w.length; j++) {
      const c = w.charCodeAt(j);
      if (c >= 128) return -1;
      this.codes[at + j] = c;
    }
    this.codeEnd = at + w.length;
    return at;
  }

  private rehash(): void {
    const size = this.slots.length * 2;
    const slots = new Int32Array(size);
    const mask = size - 1;
    for (let t = 0; t < this.terms.length; t++) {
      let s = this.hashes[t] & mask;
      while (slots[s] !== 0) s = (s + 1) & mask;
      slots[s] = t + 1;
    }
    this.slots = slots;
    this.mask = mask;
  }

  private post(t: number, doc: number): void {
    if (this.lastDoc[t] === doc) return;
    this.lastDoc[t] = doc;
    const k = this.links++;
    if (k >= this.linkDoc.length) {
      this.linkDoc = grow(this.linkDoc, k + 1);
      this.linkNext = grow(this.linkNext, k + 1);
    }
    this.linkDoc[k] = doc;
    this.linkNext[k] = -1;
    if (this.count[t]++ === 0) this.head[t] = k;
    else this.linkNext[this.tail[t]] = k;
    this.tail[t] = k;
  }
}

// The UTF-16 units of the letter or digit at i (2 for a surrogate pair), or 0 when it is none.
function wordUnits(text: string, i: number, n: number): number {
  const c = text.charCodeAt(i);
  if (c < 128) return ASCII_WORD[c];
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < n && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) return ONE_WORD_CHAR.test(text.slice(i, i + 2)) ? 2 : 0;
  return isWordUnit(c) ? 1 : 0;
}
