// One line of a session file as the envelope index reads it: scanned where it lies when the scanner
// can decide it, else decoded and JSON.parse-d exactly as `parse` would. Shared by the full index
// (envelopes.ts, forwards) and the tail-first last screen (envelope-tail.ts, backwards), so the two
// can never read a line differently.
import { checkLine, NOT_PLAIN } from './envelope-check.ts';
import { scanCheckedLine, type ScannedEnvelope } from './envelope-scan.ts';
import { decodeLine, isBlank, parseLine } from '../read/jsonl.ts';
import { problem } from '../read/problems.ts';
import type { Problem } from '../schema/types.ts';

/** What `readEnvelopeLine` found. One object is reused for every line of a file (no allocation per line). */
export interface EnvelopeLine {
  /** The line's byte range (`end` is its "\n", or the file's end for an unterminated last line). */
  start: number;
  end: number;
  terminated: boolean;
  /** Where the next line starts (the file's length after the last line). */
  next: number;
  /** The envelope as scanned, or null when the line was parsed (then see `value`). */
  scanned: ScannedEnvelope | null;
  /** The parsed line; null when it was scanned, or is skipped (blank, not JSON, not an object). */
  value: Record<string, unknown> | null;
}

/** A fresh line holder for `readEnvelopeLine`. */
export function newEnvelopeLine(): EnvelopeLine {
  return { start: 0, end: 0, terminated: false, next: 0, scanned: null, value: null };
}

/**
 * Reads the line starting at `pos` into `out`. A terminated line that starts with "{" is scanned
 * where it lies (one checked pass finds its end, then the structure); the first line (a BOM), an
 * unterminated last line, blank-looking lines and what the scanner leaves undecided are decoded,
 * exactly as forEachLine gives them, and parsed. A scanned header (`type: "session"`) or a scanned
 * title on line 1 is parsed too: its whole value is kept. `line` only names the line in problems
 * (and tells line 1); problems go to `problems`.
 */
export function readEnvelopeLine(bytes: Uint8Array, pos: number, line: number, problems: Problem[], out: EnvelopeLine): void {
  const length = bytes.length;
  out.start = pos;
  out.scanned = null;
  out.value = null;
  if (pos > 0 && bytes[pos] === 123) {
    const checked = checkLine(bytes, pos, length);
    const status = checked % 4;
    const stop = (checked - status) / 4;
    if (status !== NOT_PLAIN && stop < length) {
      // The "\n" ends the line; a "\r" before it is not part of the text (as forEachLine drops it).
      const end = bytes[stop] === 10 ? stop : bytes[stop] === 13 && bytes[stop + 1] === 10 ? stop + 1 : -1;
      const scanned = end < 0 ? null : scanCheckedLine(bytes, pos, stop, status);
      if (scanned !== null) {
        out.end = end;
        out.next = end + 1;
        out.terminated = true;
        if (scanned.type === 'session' || (scanned.type === 'title' && line === 1))
          out.value = parseLine(decodeLine(bytes, pos, end).text, line, true, problems);
        else out.scanned = scanned;
        return;
      }
    }
  }
  const nl = bytes.indexOf(10, pos);
  const end = nl < 0 ? length : nl;
  out.end = end;
  out.next = nl < 0 ? length : nl + 1;
  out.terminated = nl >= 0;
  const { text, invalidUtf8 } = decodeLine(bytes, pos, end);
  if (invalidUtf8) problems.push(problem(line, 'invalid-utf8', 'line is not valid UTF-8; bad bytes read as U+FFFD'));
  if (!isBlank(text)) out.value = parseLine(text, line, nl >= 0, problems);
}
