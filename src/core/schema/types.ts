// Shared shapes of the core: what a parsed session file looks like in memory.
// Names follow docs/session-format.md §0 and docs/core-api.md.

/** What went wrong on a line; the set is closed so callers can switch on it. */
export type ProblemCode =
  | 'torn'
  | 'invalid-json'
  | 'not-an-object'
  | 'no-header'
  | 'duplicate-id'
  | 'missing-parent'
  | 'cycle'
  | 'future-version'
  | 'invalid-entry'
  | 'invalid-utf8'
  | 'header-not-first'
  | 'title-slot';

/** One problem found while reading, with its 1-based physical line number. */
export interface Problem {
  line: number;
  code: ProblemCode;
  message: string;
  severity: 'error' | 'warning';
}

/** Any JSON value. */
export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** An entry as parsed (after in-memory migration); unknown fields are kept. */
export interface Entry {
  type: string;
  id?: string;
  parentId?: string | null;
  timestamp?: string;
  [k: string]: unknown;
}

/** The session header (`type: "session"`), the first record of a file. */
export interface Header {
  type: 'session';
  version?: number;
  id: string;
  timestamp?: string;
  cwd?: string;
  title?: string;
  [k: string]: unknown;
}

/** omp's fixed-width first line (§1.3). */
export interface TitleSlot {
  type: 'title';
  v: 1;
  title: string;
  source?: 'auto' | 'user';
  updatedAt: string;
  pad: string;
  [k: string]: unknown;
}

/** One physical line that held a record. start/end: byte offsets of the line in the input (end excludes the '\n'). */
export interface SessionRecord {
  line: number;
  start: number;
  end: number;
  kind: 'title' | 'header' | 'entry';
  value: Entry | Header | TitleSlot;
}

/** The whole of a parsed file: every kept record, the entries, the id index, the leaf and the problems. */
export interface ParsedSession {
  /** Name used in messages. */
  file?: string;
  /** false when there is no header at all (then `problems` says why). */
  isSession: boolean;
  header: Header | null;
  titleSlot: TitleSlot | null;
  /** As in the file (1 when the header has no version). */
  version: number;
  /** Every kept record in file order (title slot, header, entries). */
  records: SessionRecord[];
  /** Entries (not header/slot) in file order, migrated in memory. */
  entries: Entry[];
  /** 1-based line of each entry, parallel to `entries`. */
  entryLines: number[];
  /** Entry by id; a later duplicate wins. */
  byId: ReadonlyMap<string, Entry>;
  /** Index into `entries` by id; a later duplicate wins. */
  indexById: Map<string, number>;
  /** Last entry with an id. */
  leafId: string | null;
  /** Every problem, each with its 1-based line number. */
  problems: Problem[];
  /** Physical lines in the input (blank ones and an unterminated last one included). */
  lineCount: number;
}

/** Options of `parse`/`read`. */
export interface ParseOptions {
  /** Name used in messages. */
  file?: string;
  /** Validate each entry against its zod schema and report `invalid-entry` (default true). */
  validate?: boolean;
}
