// The head of a file (§1.2–1.3): which records are the title slot and the header, and the problems
// only the whole file can tell about them. Shared by `parse` and `indexEnvelopes` so they agree.
import { CURRENT_SESSION_VERSION } from './migrate.ts';
import { problem } from './problems.ts';
import { isTitleSlot, looksLikeTitleSlot } from './title-slot.ts';
import type { Header, Problem, TitleSlot } from '../schema/types.ts';

/** Whether a record is a usable header: `type: "session"` with a string `id` (both tools' test). */
export function isHeader(value: Record<string, unknown>): value is Header {
  return value.type === 'session' && typeof value.id === 'string';
}

/** The version a header declares (1 when absent or not a number, as both tools read it). */
export function versionOf(header: Header | null): number {
  if (!header) return CURRENT_SESSION_VERSION;
  return typeof header.version === 'number' ? header.version : 1;
}

/** What a reader has learnt about the head of the file so far. */
export interface HeadState {
  header: Header | null;
  headerLine: number;
  titleSlot: TitleSlot | null;
  /** Line of the first object record other than the title slot (0 until one is seen). */
  firstObjectLine: number;
}

/** A fresh head state. */
export function newHead(): HeadState {
  return { header: null, headerLine: 0, titleSlot: null, firstObjectLine: 0 };
}

/**
 * Sorts one record into title slot, header or entry, as both readers must, remembering the slot and
 * the first valid header in `head`. `value` (the parsed line) is needed when `type` is "session",
 * or "title" on line 1; otherwise it may be null.
 */
export function classifyRecord(
  head: HeadState,
  problems: Problem[],
  type: unknown,
  value: Record<string, unknown> | null,
  line: number,
): 'title' | 'header' | 'entry' {
  if (type === 'title' && line === 1 && value) {
    if (isTitleSlot(value)) {
      head.titleSlot = value;
      return 'title';
    }
    if (looksLikeTitleSlot(value))
      problems.push(problem(line, 'title-slot', 'first line looks like an omp title slot but is not a valid one; read as an entry'));
  }
  if (head.firstObjectLine === 0) head.firstObjectLine = line;
  if (type !== 'session' || !value) return 'entry';
  if (head.header === null && isHeader(value)) {
    head.header = value;
    head.headerLine = line;
  } else if (head.header !== null) {
    problems.push(problem(line, 'header-not-first', `another session header (the first is on line ${head.headerLine}); ignored`));
  }
  return 'header';
}

/** The problems about the header that only the whole file can tell (none, late, newer version). */
export function headerProblems(header: Header | null, headerLine: number, firstObjectLine: number): Problem[] {
  if (header === null)
    return [problem(firstObjectLine || 1, 'no-header', 'no session header (a first record with type "session" and a string id): not a session file')];
  const out: Problem[] = [];
  if (headerLine !== firstObjectLine) out.push(problem(headerLine, 'header-not-first', `the session header is on line ${headerLine}, after other records`));
  const version = versionOf(header);
  if (version > CURRENT_SESSION_VERSION)
    out.push(problem(headerLine, 'future-version', `version ${version} is newer than ${CURRENT_SESSION_VERSION}; read as version ${CURRENT_SESSION_VERSION}`));
  return out;
}
