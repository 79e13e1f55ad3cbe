// JSONL framing: split on "\n" only (never a universal-newline splitter, §1.1), keep each line's
// byte range so the original bytes can be given back, decode UTF-8 once for the whole input.
import { clip, problem } from './problems.ts';
import type { Problem } from './types.ts';

/** One non-blank physical line. start/end are byte offsets (end excludes "\n"); text drops a trailing "\r". */
export interface RawLine {
  line: number;
  start: number;
  end: number;
  text: string;
  /** false only for the last line when the input does not end in "\n". */
  terminated: boolean;
}

/** The outcome of looking at one line as JSON. */
export type LineValue =
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; problem: Problem };

const encoder = new TextEncoder();
const fatalDecoder = new TextDecoder('utf-8', { fatal: true });
const lenientDecoder = new TextDecoder('utf-8');

/** Turns the input into bytes and text, telling whether the bytes were valid UTF-8. */
export function decodeInput(input: string | Uint8Array): { bytes: Uint8Array; text: string; validUtf8: boolean } {
  if (typeof input === 'string') {
    // A leading BOM would make JSON.parse fail on line 1; TextDecoder drops it for bytes, so do the same here.
    const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
    return { bytes: encoder.encode(input), text, validUtf8: true };
  }
  try {
    return { bytes: input, text: fatalDecoder.decode(input), validUtf8: true };
  } catch {
    return { bytes: input, text: lenientDecoder.decode(input), validUtf8: false };
  }
}

/**
 * Calls `visit` for every non-blank line, in order. "\n" (0x0A) never occurs inside a multi-byte
 * UTF-8 sequence and the decoder never swallows it, so the k-th "\n" of the bytes is the k-th "\n"
 * of the text: that gives byte offsets without encoding each line again. Returns the line count.
 */
export function forEachLine(bytes: Uint8Array, text: string, visit: (line: RawLine) => void): number {
  let bpos = 0;
  let spos = 0;
  let line = 0;
  while (bpos < bytes.length) {
    line++;
    const bnl = bytes.indexOf(10, bpos);
    const snl = bnl < 0 ? -1 : text.indexOf('\n', spos);
    const bend = bnl < 0 ? bytes.length : bnl;
    let s = text.slice(spos, snl < 0 ? text.length : snl);
    if (s.charCodeAt(s.length - 1) === 13) s = s.slice(0, -1);
    if (!isBlank(s)) visit({ line, start: bpos, end: bend, text: s, terminated: bnl >= 0 });
    if (bnl < 0) break;
    bpos = bnl + 1;
    spos = snl + 1;
  }
  return line;
}

/** True when a line holds only whitespace (both readers skip such lines). */
export function isBlank(s: string): boolean {
  const c = s.charCodeAt(0);
  if (c === 123 /* { */) return false;
  return s.trim() === '';
}

/** JSON.parse of one line, turning failures into the problem §0.1 names. */
export function parseLine(raw: RawLine): LineValue {
  let value: unknown;
  try {
    value = JSON.parse(raw.text);
  } catch (err) {
    if (!raw.terminated) {
      return { ok: false, problem: problem(raw.line, 'torn', `last line is incomplete (no final newline); skipped: ${clip(raw.text)}`) };
    }
    return { ok: false, problem: problem(raw.line, 'invalid-json', `not valid JSON; skipped (${clip(String((err as Error).message), 80)})`) };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, problem: problem(raw.line, 'not-an-object', `a JSON ${value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value}, not an object; skipped`) };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

/** Whether the bytes of one line are valid UTF-8 (only asked when the whole input was not). */
export function isValidUtf8(bytes: Uint8Array, start: number, end: number): boolean {
  try {
    fatalDecoder.decode(bytes.subarray(start, end));
    return true;
  } catch {
    return false;
  }
}
