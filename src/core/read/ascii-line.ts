// A JSONL line whose bytes hold non-ASCII UTF-8, given to JSON.parse as ASCII text with each
// non-ASCII character written as a JSON `\u` escape. Why: V8 decodes such a line into a two-byte
// string (2 bytes per character, all of it garbage once parsed), and that garbage is what fills the
// young generation while a session is read; the escaped text is one byte per character and parses
// to the same value (an escape inside a JSON string is that character; outside one it is a syntax
// error, as the raw character is). The caller takes the plain path whenever this one declines.

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
const HEX = '0123456789abcdef';
const SCRATCH_KEPT = 1 << 20;
let scratch = new Uint8Array(1 << 16);

/** A Uint32 view of the 4-aligned middle of `bytes`, to test four bytes for a high bit at once. */
export interface HighWords {
  /** Index in `bytes` of the first byte of `view[0]`. */
  from: number;
  view: Uint32Array;
}

/** The word view of `bytes` that `firstNonAscii` scans with. */
export function highWords(bytes: Uint8Array): HighWords {
  const from = (4 - (bytes.byteOffset & 3)) & 3;
  const count = bytes.length > from ? (bytes.length - from) >> 2 : 0;
  return { from, view: new Uint32Array(bytes.buffer, bytes.byteOffset + from, count) };
}

/** Index of the first byte ≥ 0x80 in bytes [start, end), or end when the range is ASCII. */
export function firstNonAscii(bytes: Uint8Array, words: HighWords, start: number, end: number): number {
  let i = start;
  const { from, view } = words;
  while (i < end && (i < from || ((i - from) & 3) !== 0)) {
    if (bytes[i] >= 0x80) return i;
    i++;
  }
  let w = (i - from) >> 2;
  const lastWord = (end - from) >> 2;
  while (w < lastWord && (view[w] & 0x80808080) === 0) w++;
  i = Math.max(i, from + w * 4);
  while (i < end) {
    if (bytes[i] >= 0x80) return i;
    i++;
  }
  return end;
}

const isCont = (b: number, lo: number, hi: number) => b >= lo && b <= hi;

// Length of the well-formed UTF-8 sequence at i (Unicode Table 3-7), or 0.
function sequenceAt(bytes: Uint8Array, i: number, end: number): number {
  const b0 = bytes[i];
  if (b0 >= 0xc2 && b0 <= 0xdf) return i + 1 < end && isCont(bytes[i + 1], 0x80, 0xbf) ? 2 : 0;
  if (b0 >= 0xe0 && b0 <= 0xef) {
    if (i + 2 >= end) return 0;
    const lo = b0 === 0xe0 ? 0xa0 : 0x80;
    const hi = b0 === 0xed ? 0x9f : 0xbf;
    return isCont(bytes[i + 1], lo, hi) && isCont(bytes[i + 2], 0x80, 0xbf) ? 3 : 0;
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    if (i + 3 >= end) return 0;
    const lo = b0 === 0xf0 ? 0x90 : 0x80;
    const hi = b0 === 0xf4 ? 0x8f : 0xbf;
    return isCont(bytes[i + 1], lo, hi) && isCont(bytes[i + 2], 0x80, 0xbf) && isCont(bytes[i + 3], 0x80, 0xbf) ? 4 : 0;
  }
  return 0;
}

function writeEscape(at: number, unit: number): number {
  scratch[at] = 92; // \
  scratch[at + 1] = 117; // u
  scratch[at + 2] = HEX.charCodeAt(unit >> 12);
  scratch[at + 3] = HEX.charCodeAt((unit >> 8) & 15);
  scratch[at + 4] = HEX.charCodeAt((unit >> 4) & 15);
  scratch[at + 5] = HEX.charCodeAt(unit & 15);
  return at + 6;
}

/**
 * Bytes [start, end) (a line holding at least one byte ≥ 0x80, the first at `high`) as ASCII JSON
 * text, or null when the plain decode must be used instead: a byte sequence that is not well-formed
 * UTF-8 (the plain path reports it), a non-ASCII character right after a backslash (escaping it
 * would turn an invalid escape into a valid one), or so many non-ASCII characters that the escaped
 * text would be bigger than the two-byte string it replaces.
 */
export function escapedLine(bytes: Uint8Array, words: HighWords, start: number, end: number, high: number): string | null {
  // Every escape is at most three times the bytes it stands for (2 bytes -> 6, 4 bytes -> 12).
  if (scratch.length < (end - start) * 3) scratch = new Uint8Array((end - start) * 3);
  let chars = 0; // UTF-16 units of the line beyond its ASCII bytes, for the size check at the end
  let ascii = 0;
  let at = 0;
  let i = start;
  while (i < end) {
    if (high > i) {
      // A short run is copied by hand: a subarray per run would be garbage of its own.
      if (high - i < 64) for (let k = i; k < high; k++) scratch[at + k - i] = bytes[k];
      else scratch.set(bytes.subarray(i, high), at);
      at += high - i;
      ascii += high - i;
      i = high;
    }
    if (i >= end) break;
    const n = i > start && bytes[i - 1] === 92 ? 0 : sequenceAt(bytes, i, end);
    if (n === 0) {
      if (scratch.length > SCRATCH_KEPT) scratch = new Uint8Array(SCRATCH_KEPT);
      return null;
    }
    const b0 = bytes[i];
    let cp: number;
    if (n === 2) cp = ((b0 & 0x1f) << 6) | (bytes[i + 1] & 0x3f);
    else if (n === 3) cp = ((b0 & 0x0f) << 12) | ((bytes[i + 1] & 0x3f) << 6) | (bytes[i + 2] & 0x3f);
    else cp = ((b0 & 0x07) << 18) | ((bytes[i + 1] & 0x3f) << 12) | ((bytes[i + 2] & 0x3f) << 6) | (bytes[i + 3] & 0x3f);
    chars += cp > 0xffff ? 2 : 1;
    if (cp > 0xffff) {
      at = writeEscape(at, 0xd800 + ((cp - 0x10000) >> 10));
      at = writeEscape(at, 0xdc00 + ((cp - 0x10000) & 0x3ff));
    } else {
      at = writeEscape(at, cp);
    }
    i += n;
    // Give up as soon as even an all-ASCII rest of the line (1 byte escaped, 2 plain) cannot make up for it.
    if (at > 2 * (ascii + chars) + (end - i)) break;
    high = i < end && bytes[i] >= 0x80 ? i : firstNonAscii(bytes, words, i, end);
  }
  // The plain decode would be a two-byte string: 2 bytes per UTF-16 unit.
  const text = i < end || at > 2 * (ascii + chars) ? null : decoder.decode(scratch.subarray(0, at));
  // A buffer grown for one huge line is not kept for the rest of the page's life.
  if (scratch.length > SCRATCH_KEPT) scratch = new Uint8Array(SCRATCH_KEPT);
  return text;
}
