// The records of a JSONL file fed in chunks: what `forEachRecord` gives for the whole file, with
// the file never held whole. Each chunk's complete lines are read where they lie (ASCII ones decoded
// in runs, line-runs.ts); the unfinished last line is carried (copied: a caller may reuse its
// buffer) and read once its "\n" arrives, or at the end as the file's unterminated last line.
// Byte ranges and line numbers are the file's, so `serialize` and problems read the same.
import { escapedLine, firstNonAscii, type HighWords, highWords } from './ascii-line.ts';
import { decodeLine, forEachLine, isBlank, type LineVisitor, parseLine, type RecordVisitor } from './jsonl.ts';
import { forEachLineRun } from './line-runs.ts';
import { problem } from './problems.ts';
import type { Problem } from '../schema/types.ts';

/**
 * Lines up to this long holding non-ASCII are parsed from escaped ASCII text (ascii-line.ts); a
 * longer one is decoded as it is: its two-byte string is allocated outside the young generation
 * anyway, and escaping it character by character costs more than the native decoder (a 49 MB
 * line: about a third more for the parse).
 */
const ESCAPED_MAX = 256 * 1024;

/** A push-style reader of a file's records. */
export interface RecordStream {
  /** The next bytes of the file. */
  push(chunk: Uint8Array): void;
  /** Ends the file (its last line, when no "\n" ended it, is read now); returns the number of physical lines. */
  end(): number;
}

/** Reads records from chunks pushed in file order; the problems of other lines go to `problems`. */
export function recordStream(problems: Problem[], visit: RecordVisitor): RecordStream {
  const plain = plainRecord(problems, visit);
  let carry: Uint8Array[] = [];
  let carryStart = 0;
  let offset = 0;
  let line = 0;
  // One line on its own, bytes [s, e) of `bytes`, which start in the file at `base`.
  const single = (bytes: Uint8Array, words: HighWords, s: number, e: number, base: number, terminated: boolean) => {
    line++;
    const escaped = terminated && e - s <= ESCAPED_MAX ? escapedRecord(bytes, words, s, e, base + s === 0) : undefined;
    if (escaped) return visit(escaped.value, line, base + s, base + e, escaped.text);
    const { text, invalidUtf8 } = decodeLine(bytes, s, e, base + s === 0);
    if (!isBlank(text)) plain(text, line, base + s, base + e, terminated, invalidUtf8);
  };
  const carried = (terminated: boolean) => {
    const whole = carry.length === 1 ? carry[0] : concatBytes(carry);
    carry = [];
    single(whole, highWords(whole), 0, whole.length, carryStart, terminated);
  };
  return {
    push(chunk) {
      let pos = 0;
      if (carry.length) {
        const nl = chunk.indexOf(10);
        if (nl < 0) {
          if (chunk.length) carry.push(chunk.slice());
          offset += chunk.length;
          return;
        }
        carry.push(chunk.subarray(0, nl));
        carried(true);
        pos = nl + 1;
      }
      // The chunk's whole lines, each ended by a "\n" inside it.
      const last = chunk.lastIndexOf(10);
      if (last >= pos) {
        const words = highWords(chunk);
        const base = offset;
        forEachLineRun(
          chunk,
          words,
          pos,
          last,
          (text, start, end) => {
            line++;
            if (!isBlank(text)) plain(text, line, base + start, base + end, true, false);
          },
          (start, end) => single(chunk, words, start, end, base, true),
        );
        pos = last + 1;
      }
      if (pos < chunk.length) {
        carryStart = offset + pos;
        carry.push(chunk.slice(pos));
      }
      offset += chunk.length;
    },
    end() {
      if (carry.length) carried(false);
      return line;
    },
  };
}

/**
 * Every line that is a JSON object, in order, with the problems of the others pushed to `problems`
 * (`invalid-utf8`, then what `parseLine` reports): what a `forEachLine` visitor calling `parseLine`
 * gets, with less garbage. Returns the number of physical lines.
 */
export function forEachRecord(input: string | Uint8Array, problems: Problem[], visit: RecordVisitor): number {
  if (typeof input === 'string') return forEachLine(input, plainRecord(problems, visit));
  const stream = recordStream(problems, visit);
  stream.push(input);
  return stream.end();
}

/** The `LineVisitor` that parses a decoded line and hands on an object (problems for the rest). */
export function plainRecord(problems: Problem[], visit: RecordVisitor): LineVisitor {
  return (text, line, start, end, terminated, invalidUtf8) => {
    if (invalidUtf8) problems.push(problem(line, 'invalid-utf8', 'line is not valid UTF-8; bad bytes read as U+FFFD'));
    const value = parseLine(text, line, terminated, problems);
    if (value !== null) visit(value, line, start, end, text);
  };
}

// A terminated line that starts with "{" and holds non-ASCII bytes, parsed from its ASCII-escaped
// text (ascii-line.ts); undefined sends the line down the plain path (which reports any problem).
function escapedRecord(
  bytes: Uint8Array,
  words: HighWords,
  pos: number,
  end: number,
  fileStart: boolean,
): { value: Record<string, unknown>; text: string } | undefined {
  let start = pos;
  if (fileStart && bytes[pos] === 0xef && bytes[pos + 1] === 0xbb && bytes[pos + 2] === 0xbf) start = pos + 3;
  const stop = end > start && bytes[end - 1] === 13 ? end - 1 : end;
  if (bytes[start] !== 123 /* { */) return undefined;
  const high = firstNonAscii(bytes, words, start, stop);
  if (high === stop) return undefined;
  const text = escapedLine(bytes, words, start, stop, high);
  if (text === null) return undefined;
  try {
    return { value: JSON.parse(text) as Record<string, unknown>, text };
  } catch {
    return undefined;
  }
}

/** Concatenates byte arrays (storage/chunks.ts passes it on as `concatBytes`). */
export function concatBytes(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
