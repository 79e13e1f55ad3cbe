// A rollout's lines as records `{line, timestamp, type, payload}`: enveloped ones as they are,
// bare-era ones (legacy.ts) wrapped, bookkeeping lines dropped, and a problem with its line for
// every line that is none of these (session-format.md §6: skipped, the rest still read).
import { forEachLine, parseLine } from '../../read/jsonl.ts';
import { clip, problem } from '../../read/problems.ts';
import type { Problem } from '../../schema/types.ts';
import { envelope, isStateLine } from './legacy.ts';
import { isObj } from './parts.ts';

type Obj = Record<string, unknown>;

export interface CodexRecord {
  /** 1-based source line. */
  line: number;
  /** ISO time; the previous record's when the line has none (bare era). */
  timestamp: string;
  type: string;
  payload: Obj;
}

export function readRecords(bytes: Uint8Array, problems: Problem[]): CodexRecord[] {
  const out: CodexRecord[] = [];
  let first = true;
  let last = '';
  forEachLine(bytes, (text, line, _s, _e, terminated, invalidUtf8) => {
    if (invalidUtf8) problems.push(problem(line, 'invalid-utf8', 'line is not valid UTF-8; bad bytes read as U+FFFD'));
    const r = parseLine(text, line, terminated, problems);
    if (!r) return;
    const wasFirst = first;
    first = false;
    if (typeof r.timestamp === 'string') last = r.timestamp;
    if (isStateLine(r)) return;
    const bare = envelope(r, wasFirst);
    if (bare) {
      out.push({ line, timestamp: last, ...bare });
      return;
    }
    if (typeof r.type !== 'string') {
      problems.push(problem(line, 'invalid-entry', `a record without a string "type"; skipped: ${clip(text)}`));
      return;
    }
    if (!isObj(r.payload) && r.type !== 'compacted') {
      problems.push(problem(line, 'invalid-entry', `a "${clip(r.type, 30)}" record without a payload object; skipped`));
      return;
    }
    out.push({ line, timestamp: last, type: r.type, payload: isObj(r.payload) ? r.payload : r });
  });
  return out;
}
