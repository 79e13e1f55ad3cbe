// A small hand scanner for one JSONL line: reads the top-level "type", "id" and "parentId" of an
// object without JSON.parse-ing its body, yet checks the whole line is JSON, so it never keeps a
// line that `parse` skips. It reads the line's UTF-8 bytes where they lie: in Chromium a
// TextDecoder per line costs about as much as everything else of opening a session together (a
// 56 MB file: ~700 ms in a worker), and no string is needed but the three envelope values.
// Whatever it is not sure of (raw control characters, invalid UTF-8, escapes in envelope values
// or keys, non-string envelope values) it leaves UNDECIDED, and the caller uses JSON.parse.

import { checkLine, ESCAPED, NOT_PLAIN, wordsOf } from './envelope-check.ts';

/** The envelope of a line: `undefined` = key absent. Only string values (and a null parentId) are decided. */
export interface ScannedEnvelope {
  type: string | undefined;
  id: string | undefined;
  parentId: string | null | undefined;
}

/** The scanner could not decide this line (not plainly JSON, an escaped or non-string envelope value…). */
export const UNDECIDED = null;

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_OBJECT = 123;
const CLOSE_OBJECT = 125;
const OPEN_ARRAY = 91;
const CLOSE_ARRAY = 93;
const COMMA = 44;
const COLON = 58;
const SPACE = 32;

const KEY_TYPE = bytesOf('"type"');
const KEY_ID = bytesOf('"id"');
const KEY_PARENT = bytesOf('"parentId"');
const TRUE = bytesOf('true');
const FALSE = bytesOf('false');
const NULL = bytesOf('null');

function bytesOf(ascii: string): Uint8Array {
  const out = new Uint8Array(ascii.length);
  for (let i = 0; i < ascii.length; i++) out[i] = ascii.charCodeAt(i);
  return out;
}

const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function startsWith(b: Uint8Array, i: number, end: number, word: Uint8Array): boolean {
  if (i + word.length > end) return false;
  for (let k = 0; k < word.length; k++) if (b[i + k] !== word[k]) return false;
  return true;
}

// After checkLine, the only whitespace a line can hold is the space.
function skipWs(b: Uint8Array, i: number, end: number): number {
  while (i < end && b[i] === SPACE) i++;
  return i;
}

// Index just past the closing quote of the string opening at `i`, or -1. Escapes were checked by
// checkLine, so a backslash just skips the character after it; long runs go four bytes at a time
// (no byte 0x22 or 0x5c in the word). A plain loop: most strings are short keys, for which a call to
// Uint8Array#indexOf costs more than the loop.
function skipString(b: Uint8Array, i: number, end: number): number {
  const base = b.byteOffset;
  let j = i + 1;
  while (j < end) {
    const c = b[j];
    if (c === QUOTE) return j + 1;
    if (c === BACKSLASH) {
      j += 2;
      continue;
    }
    j++;
    if (((base + j) & 3) === 0 && end - j > 8) {
      const words = wordsOf(b);
      const lastWord = Math.floor((base + end) / 4);
      let k = (base + j) / 4;
      while (k < lastWord) {
        const x = words[k] ^ 0x5c5c5c5c;
        const y = words[k] ^ 0x22222222;
        if ((((x - 0x01010101) & ~x) | ((y - 0x01010101) & ~y)) & 0x80808080) break;
        k++;
      }
      j = k * 4 - base;
    }
  }
  return -1;
}

/** Whether [from, to) holds a backslash. */
function hasBackslash(b: Uint8Array, from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (b[k] === BACKSLASH) return true;
  return false;
}

// Index just past a JSON number at `i`, or -1.
function skipNumber(b: Uint8Array, i: number, end: number): number {
  if (i < end && b[i] === 45 /* - */) i++;
  if (i >= end) return -1;
  if (b[i] === 48) i++;
  else if (b[i] >= 49 && b[i] <= 57) while (i < end && isDigit(b[i])) i++;
  else return -1;
  if (i < end && b[i] === 46 /* . */) {
    i++;
    if (i >= end || !isDigit(b[i])) return -1;
    while (i < end && isDigit(b[i])) i++;
  }
  if (i < end && (b[i] === 101 || b[i] === 69) /* e E */) {
    i++;
    if (i < end && (b[i] === 43 || b[i] === 45)) i++;
    if (i >= end || !isDigit(b[i])) return -1;
    while (i < end && isDigit(b[i])) i++;
  }
  return i;
}

// Index just past a scalar (number, true, false, null) at `i`, or -1.
function skipScalar(b: Uint8Array, i: number, end: number): number {
  if (startsWith(b, i, end, TRUE)) return i + 4;
  if (startsWith(b, i, end, FALSE)) return i + 5;
  if (startsWith(b, i, end, NULL)) return i + 4;
  return skipNumber(b, i, end);
}

// Index past `"key" :` starting at `i` (a member's key and colon), or -1.
function skipKey(b: Uint8Array, i: number, end: number): number {
  if (i >= end || b[i] !== QUOTE) return -1;
  const after = skipString(b, i, end);
  if (after < 0) return -1;
  const colon = skipWs(b, after, end);
  return colon < end && b[colon] === COLON ? colon + 1 : -1;
}

/** Index just past the JSON value starting at `i` (after spaces), or -1. Iterative: no recursion however deep. */
function skipValue(b: Uint8Array, i: number, end: number): number {
  const stack: number[] = [];
  for (;;) {
    i = skipWs(b, i, end);
    if (i >= end) return -1;
    const c = b[i];
    if (c === QUOTE) {
      i = skipString(b, i, end);
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      const close = c === OPEN_OBJECT ? CLOSE_OBJECT : CLOSE_ARRAY;
      const next = skipWs(b, i + 1, end);
      if (next < end && b[next] === close) {
        i = next + 1;
      } else {
        stack.push(c);
        i = c === OPEN_OBJECT ? skipKey(b, next, end) : next;
        if (i < 0) return -1;
        continue;
      }
    } else {
      i = skipScalar(b, i, end);
    }
    if (i < 0) return -1;
    for (;;) {
      if (stack.length === 0) return i;
      i = skipWs(b, i, end);
      if (i >= end) return -1;
      const d = b[i];
      const top = stack[stack.length - 1];
      if (d === COMMA) {
        i = top === OPEN_OBJECT ? skipKey(b, skipWs(b, i + 1, end), end) : i + 1;
        if (i < 0) return -1;
        break;
      }
      if ((top === OPEN_OBJECT && d === CLOSE_OBJECT) || (top === OPEN_ARRAY && d === CLOSE_ARRAY)) {
        stack.pop();
        i++;
        continue;
      }
      return -1;
    }
  }
}

/** The text of a string value's bytes (no escapes in it: checked by the caller). */
function valueText(b: Uint8Array, from: number, to: number): string {
  let ascii = true;
  for (let k = from; k < to; k++) {
    if (b[k] >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (!ascii || to - from > 64) return utf8.decode(b.subarray(from, to));
  let s = '';
  for (let k = from; k < to; k++) s += String.fromCharCode(b[k]);
  return s;
}

/**
 * Reads the envelope of the line in bytes [start, end) (no "\n", a trailing "\r" already excluded),
 * checking the whole line is a valid JSON object. Returns UNDECIDED (null) whenever it is not sure;
 * otherwise what JSON.parse of the decoded line would give.
 */
export function scanEnvelopeBytes(b: Uint8Array, start: number, end: number): ScannedEnvelope | null {
  const checked = checkLine(b, start, end);
  const status = checked % 4;
  if (status === NOT_PLAIN || (checked - status) / 4 !== end) return UNDECIDED;
  return scanCheckedLine(b, start, end, status);
}

/**
 * `scanEnvelopeBytes` for a line `checkLine` has gone over (up to `end`), with the status it
 * returned: reads the structure only.
 */
export function scanCheckedLine(b: Uint8Array, start: number, end: number, status: number): ScannedEnvelope | null {
  const escapes = status;
  const out: ScannedEnvelope = { type: undefined, id: undefined, parentId: undefined };
  let i = skipWs(b, start, end);
  if (i >= end || b[i] !== OPEN_OBJECT) return UNDECIDED;
  i = skipWs(b, i + 1, end);
  if (i < end && b[i] === CLOSE_OBJECT) return skipWs(b, i + 1, end) === end ? out : UNDECIDED;
  for (;;) {
    if (i >= end || b[i] !== QUOTE) return UNDECIDED;
    const key = startsWith(b, i, end, KEY_TYPE) ? 'type' : startsWith(b, i, end, KEY_ID) ? 'id' : startsWith(b, i, end, KEY_PARENT) ? 'parentId' : null;
    const keyEnd = skipString(b, i, end);
    if (keyEnd < 0) return UNDECIDED;
    // An escaped key ("\u0074ype") could name an envelope field: JSON.parse decides.
    if (!key && escapes === ESCAPED && hasBackslash(b, i, keyEnd)) return UNDECIDED;
    i = skipWs(b, keyEnd, end);
    if (i >= end || b[i] !== COLON) return UNDECIDED;
    i = skipWs(b, i + 1, end);
    if (key && i < end && b[i] === QUOTE) {
      const after = skipString(b, i, end);
      if (after < 0) return UNDECIDED;
      if (escapes === ESCAPED && hasBackslash(b, i, after)) return UNDECIDED;
      out[key] = valueText(b, i + 1, after - 1);
      i = after;
    } else if (key === 'parentId' && startsWith(b, i, end, NULL)) {
      out.parentId = null;
      i += 4;
    } else if (key) {
      return UNDECIDED;
    } else {
      i = skipValue(b, i, end);
      if (i < 0) return UNDECIDED;
    }
    i = skipWs(b, i, end);
    if (i >= end) return UNDECIDED;
    const c = b[i];
    if (c === COMMA) {
      i = skipWs(b, i + 1, end);
      continue;
    }
    if (c === CLOSE_OBJECT) return skipWs(b, i + 1, end) === end ? out : UNDECIDED;
    return UNDECIDED;
  }
}

const encoder = new TextEncoder();
/** A surrogate without its pair (TextEncoder would write U+FFFD for it, JSON.parse keeps it). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * The envelope of one line of text (see scanEnvelopeBytes), or UNDECIDED. A line holding a lone
 * surrogate is left to JSON.parse: its bytes could not say what the text says.
 */
export function scanEnvelope(s: string): ScannedEnvelope | null {
  if (LONE_SURROGATE.test(s)) return UNDECIDED;
  const b = encoder.encode(s);
  return scanEnvelopeBytes(b, 0, b.length);
}
