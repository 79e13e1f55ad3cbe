// A small hand scanner for one JSONL line: reads the top-level "type", "id" and "parentId" of an
// object without JSON.parse-ing its body. String values are skipped with indexOf (native), so the
// cost is in the few structural characters, not in the megabytes of text and base64 a line holds.
// Whatever it is not sure of, it leaves undecided and the caller falls back to JSON.parse.

/** The envelope of a line: `undefined` = key absent. Only string values (and a null parentId) are decided. */
export interface ScannedEnvelope {
  type: string | undefined;
  id: string | undefined;
  parentId: string | null | undefined;
}

/** The scanner could not decide this line (not an object, an escaped or non-string envelope value, odd structure). */
export const UNDECIDED = null;

const QUOTE = 34;
const BACKSLASH = 92;

function skipWs(s: string, i: number): number {
  for (;;) {
    const c = s.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13) i++;
    else return i;
  }
}

// Index just past the closing quote of the string opening at `i`, or -1.
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

// The string opening at `i` without escapes, or null when it has any (JSON.parse decides those).
function readPlainString(s: string, i: number): { value: string; end: number } | null {
  const end = skipString(s, i);
  if (end < 0) return null;
  const value = s.slice(i + 1, end - 1);
  return value.includes('\\') ? null : { value, end };
}

// Index just past the JSON value starting at `i`, or -1. Nested values are skipped by depth,
// strings by skipString; scalars up to the next delimiter.
function skipValue(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c === QUOTE) return skipString(s, i);
  if (c === 123 || c === 91) {
    let depth = 0;
    for (let j = i; j < s.length; ) {
      const d = s.charCodeAt(j);
      if (d === QUOTE) {
        j = skipString(s, j);
        if (j < 0) return -1;
        continue;
      }
      if (d === 123 || d === 91) depth++;
      else if (d === 125 || d === 93) {
        depth--;
        if (depth === 0) return j + 1;
      }
      j++;
    }
    return -1;
  }
  for (const literal of ['true', 'false', 'null']) if (s.startsWith(literal, i)) return i + literal.length;
  // A number: only its characters are checked, JSON.parse (in bodyOf) has the last word on its form.
  let j = i;
  for (; j < s.length; j++) {
    const d = s.charCodeAt(j);
    if (!((d >= 48 && d <= 57) || d === 45 || d === 43 || d === 46 || d === 101 || d === 69)) break;
  }
  return j > i ? j : -1;
}

// Whether the key string in [i, end) has an escape (then "\u0074ype" could mean "type").
function hasEscape(s: string, i: number, end: number): boolean {
  for (let j = i + 1; j < end - 1; j++) if (s.charCodeAt(j) === BACKSLASH) return true;
  return false;
}

/**
 * Reads the envelope of one line holding a JSON object, walking its top-level members only.
 * Returns UNDECIDED (null) when the line is not plainly an object or an envelope value is not a
 * plain string (or null for parentId): the caller then uses JSON.parse.
 */
export function scanEnvelope(s: string): ScannedEnvelope | null {
  const out: ScannedEnvelope = { type: undefined, id: undefined, parentId: undefined };
  let i = skipWs(s, 0);
  if (s.charCodeAt(i) !== 123) return UNDECIDED;
  i = skipWs(s, i + 1);
  if (s.charCodeAt(i) === 125) return skipWs(s, i + 1) === s.length ? out : UNDECIDED;
  for (;;) {
    if (s.charCodeAt(i) !== QUOTE) return UNDECIDED;
    const key = s.startsWith('"type"', i) ? 'type' : s.startsWith('"id"', i) ? 'id' : s.startsWith('"parentId"', i) ? 'parentId' : null;
    const keyEnd = key ? i + key.length + 2 : skipString(s, i);
    if (keyEnd < 0 || (!key && hasEscape(s, i, keyEnd))) return UNDECIDED;
    i = skipWs(s, keyEnd);
    if (s.charCodeAt(i) !== 58) return UNDECIDED;
    i = skipWs(s, i + 1);
    if (key) {
      if (key === 'parentId' && s.startsWith('null', i)) {
        out.parentId = null;
        i += 4;
      } else {
        if (s.charCodeAt(i) !== QUOTE) return UNDECIDED;
        const str = readPlainString(s, i);
        if (!str) return UNDECIDED;
        out[key] = str.value;
        i = str.end;
      }
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
    if (c === 125) return skipWs(s, i + 1) === s.length ? out : UNDECIDED;
    return UNDECIDED;
  }
}
