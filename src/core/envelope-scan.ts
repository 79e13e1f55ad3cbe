// A small hand scanner for one JSONL line: reads the top-level "type", "id" and "parentId" of an
// object without JSON.parse-ing its body, yet checks the whole line is JSON, so it never keeps a
// line that `parse` skips. String contents are checked by one regex test (raw control characters)
// and a jump from backslash to backslash (escapes), and skipped with indexOf (native); the JS loop
// runs only over the structural characters between strings. Whatever it is not sure of, it leaves
// undecided and the caller falls back to JSON.parse.

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
// Raw U+0000–U+001F may not appear inside a JSON string; tabs between tokens are legal but no writer
// makes them, so any control character sends the line to JSON.parse.
const CONTROL = /[\u0000-\u001f]/;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const HEX4 = /[0-9a-fA-F]{4}/y;

// Every backslash starts a valid escape (\" \\ \/ \b \f \n \r \t \uXXXX), taken left to right.
function escapesValid(s: string): boolean {
  let k = s.indexOf('\\');
  while (k >= 0) {
    const c = s.charCodeAt(k + 1);
    if (c === 117 /* u */) {
      HEX4.lastIndex = k + 2;
      if (!HEX4.test(s)) return false;
      k = s.indexOf('\\', k + 6);
    } else if (c === QUOTE || c === BACKSLASH || c === 47 || c === 98 || c === 102 || c === 110 || c === 114 || c === 116) {
      k = s.indexOf('\\', k + 2);
    } else {
      return false;
    }
  }
  return true;
}

function hasBackslash(s: string, from: number, to: number): boolean {
  for (let j = from; j < to; j++) if (s.charCodeAt(j) === BACKSLASH) return true;
  return false;
}

function skipWs(s: string, i: number): number {
  if (s.charCodeAt(i) > 32) return i;
  for (;;) {
    const c = s.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13) i++;
    else return i;
  }
}

// Index just past the closing quote of the string opening at `i`, or -1 (escapes already checked).
function skipString(s: string, i: number): number {
  let j = i + 1;
  for (;;) {
    const q = s.indexOf('"', j);
    if (q < 0) return -1;
    let k = q - 1;
    while (s.charCodeAt(k) === BACKSLASH) k--;
    if ((q - 1 - k) % 2 === 0) return q + 1;
    j = q + 1;
  }
}

// Index just past a scalar (number, true, false, null) at `i`, or -1.
function skipScalar(s: string, i: number): number {
  if (s.startsWith('true', i)) return i + 4;
  if (s.startsWith('false', i)) return i + 5;
  if (s.startsWith('null', i)) return i + 4;
  NUMBER.lastIndex = i;
  return NUMBER.test(s) ? NUMBER.lastIndex : -1;
}

// Index past `"key" :` starting at `i` (a member's key and colon), or -1.
function skipKey(s: string, i: number): number {
  if (s.charCodeAt(i) !== QUOTE) return -1;
  const end = skipString(s, i);
  if (end < 0) return -1;
  const colon = skipWs(s, end);
  return s.charCodeAt(colon) === 58 ? colon + 1 : -1;
}

/**
 * Index just past the JSON value starting at `i` (after whitespace), or -1 when it is not valid
 * JSON. Iterative, with an explicit stack of open containers: no recursion however deep.
 */
export function skipValue(s: string, i: number): number {
  const stack: number[] = [];
  for (;;) {
    // A value.
    i = skipWs(s, i);
    const c = s.charCodeAt(i);
    if (c === QUOTE) {
      i = skipString(s, i);
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      const close = c === OPEN_OBJECT ? CLOSE_OBJECT : CLOSE_ARRAY;
      const next = skipWs(s, i + 1);
      if (s.charCodeAt(next) === close) {
        i = next + 1;
      } else {
        stack.push(c);
        i = c === OPEN_OBJECT ? skipKey(s, next) : next;
        if (i < 0) return -1;
        continue;
      }
    } else {
      i = skipScalar(s, i);
    }
    if (i < 0) return -1;
    // What follows it: close containers, or a separator and the next value.
    for (;;) {
      if (stack.length === 0) return i;
      i = skipWs(s, i);
      const d = s.charCodeAt(i);
      const top = stack[stack.length - 1];
      if (d === 44) {
        i = top === OPEN_OBJECT ? skipKey(s, skipWs(s, i + 1)) : i + 1;
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

/**
 * Reads the envelope of one line holding a JSON object, checking the whole line is valid JSON.
 * Returns UNDECIDED (null) when the line is not plainly a valid object or an envelope value is not
 * a plain string (or null for parentId): the caller then uses JSON.parse.
 */
export function scanEnvelope(s: string): ScannedEnvelope | null {
  // One native pass for raw control characters, then a jump from backslash to backslash (a
  // pre-filter regex with an alternation per character cost more than both on escape-heavy lines).
  if (CONTROL.test(s) || !escapesValid(s)) return UNDECIDED;
  const out: ScannedEnvelope = { type: undefined, id: undefined, parentId: undefined };
  let i = skipWs(s, 0);
  if (s.charCodeAt(i) !== OPEN_OBJECT) return UNDECIDED;
  i = skipWs(s, i + 1);
  if (s.charCodeAt(i) === CLOSE_OBJECT) return skipWs(s, i + 1) === s.length ? out : UNDECIDED;
  for (;;) {
    const key = s.startsWith('"type"', i) ? 'type' : s.startsWith('"id"', i) ? 'id' : s.startsWith('"parentId"', i) ? 'parentId' : null;
    const keyEnd = skipString(s, i);
    // An escaped key ("\u0074ype") could name an envelope field: JSON.parse decides.
    if (s.charCodeAt(i) !== QUOTE || keyEnd < 0 || (!key && hasBackslash(s, i, keyEnd))) return UNDECIDED;
    i = skipWs(s, keyEnd);
    if (s.charCodeAt(i) !== 58) return UNDECIDED;
    i = skipWs(s, i + 1);
    if (key && s.charCodeAt(i) === QUOTE) {
      const end = skipString(s, i);
      if (end < 0) return UNDECIDED;
      const value = s.slice(i + 1, end - 1);
      if (value.includes('\\')) return UNDECIDED;
      out[key] = value;
      i = end;
    } else if (key === 'parentId' && s.startsWith('null', i)) {
      out.parentId = null;
      i += 4;
    } else if (key) {
      return UNDECIDED;
    } else {
      i = skipValue(s, i);
      if (i < 0) return UNDECIDED;
    }
    i = skipWs(s, i);
    const c = s.charCodeAt(i);
    if (c === 44) {
      i = skipWs(s, i + 1);
      continue;
    }
    if (c === CLOSE_OBJECT) return skipWs(s, i + 1) === s.length ? out : UNDECIDED;
    return UNDECIDED;
  }
}
