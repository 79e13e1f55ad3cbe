// Reading a Claude Code file's lines: JSON objects with their 1-based line numbers, and a problem
// for each line pi's reader would skip (invalid JSON, not an object, a torn last line), reported
// with the same codes and texts as the core's own reader (session-format.md §0.1.4).
import { forEachLine, parseLine } from '../../read/jsonl.ts';
import { problem } from '../../read/problems.ts';
import type { Problem } from '../../schema/types.ts';
import type { Json } from './content.ts';

export interface SourceLine {
  record: Json;
  line: number;
}

/** Every JSON-object line of the file, in order, and the problems of the others. */
export function readRecords(bytes: Uint8Array): { lines: SourceLine[]; problems: Problem[] } {
  const lines: SourceLine[] = [];
  const problems: Problem[] = [];
  forEachLine(bytes, (text, line, _start, _end, terminated, invalidUtf8) => {
    if (invalidUtf8) problems.push(problem(line, 'invalid-utf8', 'line is not valid UTF-8; bad bytes read as U+FFFD'));
    const record = parseLine(text, line, terminated, problems);
    if (record) lines.push({ record, line });
  });
  return { lines, problems };
}

/** Facts about the whole file: its session id, working directory, start, and whether it is a subagent's transcript. */
export interface SourceFacts {
  sessionId: string | null;
  cwd: string;
  started: string | null;
  /** The subagent's id when every conversation line is a sidechain of one agent (`<uuid>/subagents/agent-<id>.jsonl`). */
  agentId: string | null;
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** An ISO timestamp (`toISOString` form) for a Claude timestamp (kept as is when already one), or null. */
export function isoOf(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  if (ISO.test(value)) return value;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

export function factsOf(lines: readonly SourceLine[]): SourceFacts {
  let sessionId: string | null = null;
  let cwd: string | null = null;
  let started: string | null = null;
  let agentId: string | null = null;
  let conversation = 0;
  let sidechain = 0;
  for (const { record: r } of lines) {
    if (sessionId === null && typeof r.sessionId === 'string') sessionId = r.sessionId;
    if (cwd === null && typeof r.cwd === 'string') cwd = r.cwd;
    if (started === null) started = isoOf(r.timestamp);
    if (typeof r.uuid === 'string') {
      conversation++;
      if (r.isSidechain === true) sidechain++;
      if (agentId === null && typeof r.agentId === 'string') agentId = r.agentId;
    }
  }
  return { sessionId, cwd: cwd ?? '', started, agentId: conversation > 0 && sidechain === conversation ? agentId : null };
}
