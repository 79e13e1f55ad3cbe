// index.log: the library index's records written since index.json, one JSON line each, so a write
// of a few records (an import call, an append, a rename) costs the bytes of those records, not a
// rewrite of the whole index (1.4 MB for 2,000 sessions). The log's first line names the index.json
// it continues (that file's `log` field); a log that names another file (index.json replaced by a
// compaction or a rebuild, or written by a build that keeps no log) is ignored and started again.
//
// Every append begins with "\n", so a line a crash cut off is a line of its own, skipped when read
// (the index is a cache of the files: a record missed is healed from them, store-index.ts). A line
// at the very end that does not parse may still be being written: it is read again once the log grows.
import { INDEX_VERSION, isSummary } from './index-file.ts';
import type { SessionSummary } from './types.ts';

/** The format tag of the log's first line. */
export const LOG_FORMAT = 'rho-sessions-index-log';

/** One record of the log: a session's summary, or null when it was deleted. */
export type IndexChange = readonly [id: string, summary: SessionSummary | null];

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A fresh name for a log (and the index.json it continues). */
export const newLogName = (): string => `${Date.now().toString(36)}-${Math.random().toString(16).slice(2, 10)}`;

/** The bytes of a new log named `name`, with its first records. */
export function encodeLogStart(name: string, changes: Iterable<IndexChange>): Uint8Array {
  const head = JSON.stringify({ format: LOG_FORMAT, version: INDEX_VERSION, of: name });
  return encoder.encode(`${head}\n${linesOf(changes)}`);
}

/** The bytes appended to a log for these records. */
export function encodeLogAppend(changes: Iterable<IndexChange>): Uint8Array {
  return encoder.encode(`\n${linesOf(changes)}`);
}

function linesOf(changes: Iterable<IndexChange>): string {
  let out = '';
  for (const [id, s] of changes) out += `${JSON.stringify({ id, s })}\n`;
  return out;
}

/** What a read of (part of) a log found: its records in order, and how many bytes were read through. */
export interface LogRead<T = IndexChange> {
  changes: T[];
  /** Bytes read through (to the end of the last line that is complete); the next read starts here. */
  consumed: number;
  /** From the start: whether the log continues the index.json named `name` (else nothing of it counts). */
  belongs: boolean;
}

/**
 * Reads log bytes that start at offset `at` of the log (0: its first line, checked against `name`,
 * the index.json's log name). Lines that do not parse, or are not records, are skipped.
 */
export function readLog(bytes: Uint8Array, at: number, name: string): LogRead {
  return readLogLines<IndexChange>(
    bytes,
    at,
    (v) => {
      const h = v as { format?: unknown; version?: unknown; of?: unknown } | undefined;
      return !!h && h.format === LOG_FORMAT && h.version === INDEX_VERSION && h.of === name;
    },
    (v) => {
      const r = v as { id?: unknown; s?: unknown };
      return typeof r.id === 'string' && (r.s === null || isSummary(r.s)) ? [r.id, r.s as SessionSummary | null] : null;
    },
  );
}

/**
 * The lines of a log of JSON lines whose first line names what it continues: bytes that start at
 * offset `at` of the log (0: the first line, which `head` must accept, else nothing of it counts),
 * each further line made a record by `record` (null: skipped, as a line that does not parse is).
 * A line at the very end that does not parse may still be being written: it is not read through.
 */
export function readLogLines<T>(bytes: Uint8Array, at: number, head: (v: unknown) => boolean, record: (v: object) => T | null): LogRead<T> {
  const text = decoder.decode(bytes);
  const changes: T[] = [];
  let pos = 0;
  let belongs = at > 0;
  for (;;) {
    const nl = text.indexOf('\n', pos);
    const line = nl < 0 ? text.slice(pos) : text.slice(pos, nl);
    let value: unknown;
    try {
      value = line ? JSON.parse(line) : undefined;
    } catch {
      // The last line may still be being written: read again from its start.
      if (nl < 0) break;
    }
    if (!belongs) {
      if (!head(value)) return { changes: [], consumed: 0, belongs: false };
      belongs = true;
    } else if (value !== undefined && value !== null && typeof value === 'object') {
      const r = record(value);
      if (r !== null) changes.push(r);
    }
    if (nl < 0) {
      pos = text.length;
      break;
    }
    pos = nl + 1;
  }
  // Bytes, not characters: all of them, or the text before the unfinished line re-encoded.
  return { changes, consumed: pos === text.length ? bytes.length : encoder.encode(text.slice(0, pos)).length, belongs };
}

/** Applies records to a map of summaries by id. */
export function applyChanges(map: Map<string, SessionSummary>, changes: Iterable<IndexChange>): void {
  for (const [id, s] of changes) {
    if (s) map.set(id, s);
    else map.delete(id);
  }
}
