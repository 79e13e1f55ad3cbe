// The checked pass over one JSONL line's bytes (envelope-scan.ts reads the structure after it):
// valid UTF-8 (shortest forms, no surrogates, at most U+10FFFF) and valid escapes, up to the first
// raw control byte, four bytes at a time where they are plain ASCII.

const SPACE = 32;
const BACKSLASH = 92;
const QUOTE = 34;

/** `checkLine` status: plain, no backslash. */
export const PLAIN = 0;
/** `checkLine` status: plain, with valid escapes. */
export const ESCAPED = 1;
/** `checkLine` status: invalid UTF-8 or an invalid escape: leave it to the decoder. */
export const NOT_PLAIN = 2;

/**
 * One pass over the bytes from `start`, up to the first raw control byte (U+0000–U+001F: the "\n"
 * that ends the line, a "\r" before it, or one JSON forbids) or `limit`. Checks they are valid UTF-8
 * (shortest forms, no surrogates, at most U+10FFFF: so the text a TextDecoder gives reads exactly
 * like them) and that every backslash starts a valid escape (\" \\ \/ \b \f \n \r \t \uXXXX, left
 * to right). Returns `stop * 4 + status` (PLAIN, ESCAPED, or
 * NOT_PLAIN with an unspecified stop). Bounded loops only: Uint8Array#indexOf has no end and would
 * run on through the rest of the file.
 */
export function checkLine(b: Uint8Array, start: number, limit: number): number {
  const words = wordsOf(b);
  const base = b.byteOffset;
  const lastWord = Math.floor((base + limit) / 4);
  let found = PLAIN;
  let i = start;
  while (i < limit) {
    // Four bytes at a time while they are plain ASCII without a backslash (most of any line): no
    // byte has its top bit, none is below 0x20, none is 0x5c (the classic "has less" and "has zero
    // byte" tests).
    if (((base + i) & 3) === 0) {
      let k = (base + i) / 4;
      while (k < lastWord) {
        const w = words[k];
        const x = w ^ 0x5c5c5c5c;
        if ((w & 0x80808080) !== 0 || ((w - 0x20202020) & ~w & 0x80808080) !== 0 || ((x - 0x01010101) & ~x & 0x80808080) !== 0) break;
        k++;
      }
      i = k * 4 - base;
      if (i >= limit) break;
    }
    const c = b[i];
    if (c >= SPACE && c < 0x80) {
      if (c !== BACKSLASH) {
        i++;
        continue;
      }
      found = ESCAPED;
      const d = i + 1 < limit ? b[i + 1] : -1;
      if (d === 117 /* u */) {
        if (i + 5 >= limit || !isHex(b[i + 2]) || !isHex(b[i + 3]) || !isHex(b[i + 4]) || !isHex(b[i + 5])) return NOT_PLAIN;
        i += 6;
      } else if (d === QUOTE || d === BACKSLASH || d === 47 || d === 98 || d === 102 || d === 110 || d === 114 || d === 116) {
        i += 2;
      } else {
        return NOT_PLAIN;
      }
      continue;
    }
    if (c < SPACE) break;
    // A multi-byte sequence (RFC 3629 table 3-7).
    if (c >= 0xc2 && c <= 0xdf) {
      if (i + 1 >= limit || (b[i + 1] & 0xc0) !== 0x80) return NOT_PLAIN;
      i += 2;
    } else if (c >= 0xe0 && c <= 0xef) {
      if (i + 2 >= limit) return NOT_PLAIN;
      const c1 = b[i + 1];
      if ((c1 & 0xc0) !== 0x80 || (b[i + 2] & 0xc0) !== 0x80) return NOT_PLAIN;
      if ((c === 0xe0 && c1 < 0xa0) || (c === 0xed && c1 > 0x9f)) return NOT_PLAIN;
      i += 3;
    } else if (c >= 0xf0 && c <= 0xf4) {
      if (i + 3 >= limit) return NOT_PLAIN;
      const c1 = b[i + 1];
      if ((c1 & 0xc0) !== 0x80 || (b[i + 2] & 0xc0) !== 0x80 || (b[i + 3] & 0xc0) !== 0x80) return NOT_PLAIN;
      if ((c === 0xf0 && c1 < 0x90) || (c === 0xf4 && c1 > 0x8f)) return NOT_PLAIN;
      i += 4;
    } else {
      return NOT_PLAIN;
    }
  }
  return Math.min(i, limit) * 4 + found;
}

let wordsFor: ArrayBufferLike | null = null;
let wordView: Uint32Array<ArrayBufferLike> = new Uint32Array(0);

/** The bytes' whole buffer seen as 32-bit words (made once per buffer). */
export function wordsOf(b: Uint8Array): Uint32Array {
  if (wordsFor !== b.buffer) {
    wordsFor = b.buffer;
    wordView = new Uint32Array(b.buffer, 0, Math.floor(b.buffer.byteLength / 4));
  }
  return wordView;
}

function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}
