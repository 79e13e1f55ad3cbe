// JSONL framing: split on "\n" only (never a universal-newline splitter, §1.1) and keep each line's
// byte range so the original bytes can be given back.
import { highWords } from './ascii-line.ts';
import { forEachLineRun } from './line-runs.ts';
import { clip, problem } from './problems.ts';
import type { Problem } from '../schema/types.ts';

/**
 * Receives one non-blank physical line: its text (a trailing "\r" dropped), 1-based number, byte
 * range (end excludes "\n"), whether a "\n" ended it, and whether its bytes were invalid UTF-8.
 * Plain arguments rather than an object: this runs once per line of files with 200,000 lines.
 */
export type LineVisitor = (text: string, line: number, start: number, end: number, terminated: boolean, invalidUtf8: boolean) => void;

const encoder = new TextEncoder();
// ignoreBOM: a BOM is dropped only at the very start of the input (by hand below), not at the start
// of every line, so text and bytes read the same.
const fatalDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenientDecoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** One line's bytes as text (a trailing "\r" dropped, and a BOM when the line starts the file), and whether they were valid UTF-8. */
export function decodeLine(bytes: Uint8Array, start: number, end: number, fileStart = start === 0): { text: string; invalidUtf8: boolean } {
  let text: string;
  let invalidUtf8 = false;
  try {
    text = fatalDecoder.decode(bytes.subarray(start, end));
  } catch {
    text = lenientDecoder.decode(bytes.subarray(start, end));
    invalidUtf8 = true;
  }
  if (fileStart && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.charCodeAt(text.length - 1) === 13) text = text.slice(0, -1);
  return { text, invalidUtf8 };
}

/**
 * Calls `visit` for every non-blank line, in order, and returns the number of physical lines.
 * Bytes are decoded line by line: V8 builds a two-byte string slowly, so decoding the whole input
 * at once would make every ASCII line pay for one emoji anywhere in the file.
 */
export function forEachLine(input: string | Uint8Array, visit: LineVisitor): number {
  return typeof input === 'string' ? forEachTextLine(input, visit) : forEachByteLine(input, visit);
}

function forEachByteLine(bytes: Uint8Array, visit: LineVisitor): number {
  if (bytes.length === 0) return 0;
  const last = bytes[bytes.length - 1] === 10 ? bytes.length - 1 : bytes.length;
  let line = 0;
  forEachLineRun(
    bytes,
    highWords(bytes),
    0,
    last,
    (text, start, end) => {
      line++;
      if (!isBlank(text)) visit(text, line, start, end, end < bytes.length, false);
    },
    (start, end) => plainLine(bytes, start, end, ++line, end < bytes.length, visit),
  );
  return line;
}

// One line decoded on its own (a trailing "\r" and a BOM at offset 0 dropped) and visited unless blank.
function plainLine(bytes: Uint8Array, pos: number, end: number, line: number, terminated: boolean, visit: LineVisitor): void {
  const { text, invalidUtf8 } = decodeLine(bytes, pos, end);
  if (!isBlank(text)) visit(text, line, pos, end, terminated, invalidUtf8);
}

/**
 * Receives one line that is a JSON object: the object, 1-based line number, byte range (end
 * excludes "\n") and the text it was parsed from (a line holding non-ASCII may come with its
 * characters as JSON escapes: the same object either way).
 */
export type RecordVisitor = (value: Record<string, unknown>, line: number, start: number, end: number, text: string) => void;

const NON_ASCII = /[^\u0000-\u007f]/;

// Byte offsets of a string's lines as TextEncoder lays them out (a lone surrogate takes 3 bytes);
// an ASCII line (one regex test) is as long in bytes as in chars.
function forEachTextLine(input: string, visit: LineVisitor): number {
  let scratch = new Uint8Array(1 << 16);
  let spos = 0;
  let bpos = 0;
  let line = 0;
  while (spos < input.length) {
    line++;
    const nl = input.indexOf('\n', spos);
    const raw = input.slice(spos, nl < 0 ? input.length : nl);
    let size = raw.length;
    if (NON_ASCII.test(raw)) {
      if (scratch.length < raw.length * 3) scratch = new Uint8Array(raw.length * 3);
      size = encoder.encodeInto(raw, scratch).written;
    }
    const end = bpos + size;
    // TextDecoder drops a leading BOM from bytes; do the same for text so line 1 still parses.
    let text = line === 1 && raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
    if (text.charCodeAt(text.length - 1) === 13) text = text.slice(0, -1);
    if (!isBlank(text)) visit(text, line, bpos, end, nl >= 0, false);
    if (nl < 0) break;
    spos = nl + 1;
    bpos = end + 1;
  }
  return line;
}

/** True when a line holds only whitespace (both readers skip such lines). */
export function isBlank(s: string): boolean {
  const c = s.charCodeAt(0);
  if (c === 123 /* { */) return false;
  return s.trim() === '';
}

/**
 * JSON.parse of one line: the object, or null after pushing the problem §0.1 names
 * (`torn` for an unterminated last line, `invalid-json`, `not-an-object`).
 */
export function parseLine(text: string, line: number, terminated: boolean, problems: Problem[]): Record<string, unknown> | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    if (!terminated) problems.push(problem(line, 'torn', `last line is incomplete (no final newline); skipped: ${clip(text)}`));
    else problems.push(problem(line, 'invalid-json', `not valid JSON; skipped (${clip(String((err as Error).message), 80)})`));
    return null;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const kind = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
    problems.push(problem(line, 'not-an-object', `a JSON ${kind}, not an object; skipped`));
    return null;
  }
  return value as Record<string, unknown>;
}
