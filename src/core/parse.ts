// Reading a session file (§0.1): one pass over the lines, then migration, then the tree check.
import { forEachLine, parseLine } from './jsonl.ts';
import { CURRENT_SESSION_VERSION, migrate } from './migrate.ts';
import { clip, problem } from './problems.ts';
import { entryProblem } from './schemas.ts';
import { applyTitleSlot, isTitleSlot, looksLikeTitleSlot } from './title-slot.ts';
import { branch, checkTree } from './tree.ts';
import { EntryMap } from './entry-map.ts';
import type { Entry, Header, ParseOptions, ParsedSession, Problem, SessionRecord, TitleSlot } from './types.ts';

/** Whether a record is a usable header: `type: "session"` with a string `id` (both tools' test). */
export function isHeader(value: Record<string, unknown>): value is Header {
  return value.type === 'session' && typeof value.id === 'string';
}

/** The version a header declares (1 when absent or not a number, as both tools read it). */
export function versionOf(header: Header | null): number {
  if (!header) return CURRENT_SESSION_VERSION;
  return typeof header.version === 'number' ? header.version : 1;
}

/** What the line pass collects before migration and the tree check. */
interface LinePass {
  problems: Problem[];
  records: SessionRecord[];
  entries: Entry[];
  entryLines: number[];
  header: Header | null;
  headerLine: number;
  titleSlot: TitleSlot | null;
  firstObjectLine: number;
  lineCount: number;
}

// One pass over the lines: JSON.parse each, sort records into title slot, headers and entries.
function readLines(input: string | Uint8Array): LinePass {
  const pass: LinePass = { problems: [], records: [], entries: [], entryLines: [], header: null, headerLine: 0, titleSlot: null, firstObjectLine: 0, lineCount: 0 };
  const { problems, records, entries, entryLines } = pass;
  pass.lineCount = forEachLine(input, (text, line, start, end, terminated, invalidUtf8) => {
    if (invalidUtf8) problems.push(problem(line, 'invalid-utf8', 'line is not valid UTF-8; bad bytes read as U+FFFD'));
    const value = parseLine(text, line, terminated, problems);
    if (value === null) return;
    const type = value.type;
    if (type === 'title' && line === 1) {
      if (isTitleSlot(value)) {
        pass.titleSlot = value;
        records.push({ line, start, end, kind: 'title', value });
        return;
      }
      if (looksLikeTitleSlot(value)) problems.push(problem(line, 'title-slot', 'first line looks like an omp title slot but is not a valid one; read as an entry'));
    }
    if (pass.firstObjectLine === 0) pass.firstObjectLine = line;
    if (type === 'session') {
      records.push({ line, start, end, kind: 'header', value: value as Header });
      if (pass.header === null && isHeader(value)) {
        pass.header = value;
        pass.headerLine = line;
      } else if (pass.header !== null) {
        problems.push(problem(line, 'header-not-first', `another session header (the first is on line ${pass.headerLine}); ignored`));
      }
      return;
    }
    records.push({ line, start, end, kind: 'entry', value: value as Entry });
    entries.push(value as Entry);
    entryLines.push(line);
  });
  return pass;
}

/** The problems about the header that only the whole file can tell (none, late, newer version). */
export function headerProblems(header: Header | null, headerLine: number, firstObjectLine: number): Problem[] {
  if (header === null) return [problem(firstObjectLine || 1, 'no-header', 'no session header (a first record with type "session" and a string id): not a session file')];
  const out: Problem[] = [];
  if (headerLine !== firstObjectLine) out.push(problem(headerLine, 'header-not-first', `the session header is on line ${headerLine}, after other records`));
  const version = versionOf(header);
  if (version > CURRENT_SESSION_VERSION) out.push(problem(headerLine, 'future-version', `version ${version} is newer than ${CURRENT_SESSION_VERSION}; read as version ${CURRENT_SESSION_VERSION}`));
  return out;
}

/**
 * Parses a session file's text or bytes: every record in file order with its byte range, the
 * header, the omp title slot, the entries (v1/v2 migrated in memory), the id index, the leaf and
 * every problem with its line. Never throws on bad input.
 */
export function parse(input: string | Uint8Array, opts: ParseOptions = {}): ParsedSession {
  const pass = readLines(input);
  const { problems, entries, entryLines, header, titleSlot } = pass;
  problems.push(...headerProblems(header, pass.headerLine, pass.firstObjectLine));
  if (header && titleSlot) applyTitleSlot(header, titleSlot);
  const version = versionOf(header);
  if (header) migrate(entries, entryLines, version);
  const ids: (string | undefined)[] = new Array(entries.length);
  const parentIds: (string | null | undefined)[] = new Array(entries.length);
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    if (typeof e.id !== 'string' || (e.parentId != null && typeof e.parentId !== 'string')) {
      const fixed = checkEnvelope(e.id, e.parentId, entryLines[i], problems);
      if (fixed.id === undefined) delete e.id;
      if (fixed.parentId !== e.parentId) e.parentId = fixed.parentId;
    }
    ids[i] = e.id;
    parentIds[i] = e.parentId;
    if (opts.validate !== false) {
      const bad = entryProblem(e, entryLines[i]);
      if (bad) problems.push(bad);
    }
  }
  const tree = checkTree({ ids, parentIds, lines: entryLines });
  problems.push(...tree.problems);
  if (problems.length > 1) problems.sort((a, b) => a.line - b.line);
  return {
    file: opts.file,
    isSession: header !== null,
    header,
    titleSlot,
    version,
    records: pass.records,
    entries,
    entryLines,
    byId: new EntryMap(tree.indexById, entries),
    indexById: tree.indexById,
    leafId: tree.leafIndex < 0 ? null : (entries[tree.leafIndex].id as string),
    problems,
    lineCount: pass.lineCount,
  };
}

/**
 * The id and parentId an entry takes part in the tree with: a non-string id is dropped and a
 * non-string parentId read as null (a root), each reported as `invalid-entry` on the line.
 * Shared by `parse` and `indexEnvelopes`.
 */
export function checkEnvelope(id: unknown, parentId: unknown, line: number, problems: Problem[]): { id: string | undefined; parentId: string | null | undefined } {
  let goodId = id as string | undefined;
  let goodParent = parentId as string | null | undefined;
  if (id !== undefined && typeof id !== 'string') {
    problems.push(problem(line, 'invalid-entry', `id ${clip(JSON.stringify(id) ?? String(id))} is not a string; entry kept without an id`));
    goodId = undefined;
  }
  if (parentId !== undefined && parentId !== null && typeof parentId !== 'string') {
    problems.push(problem(line, 'invalid-entry', `parentId ${clip(JSON.stringify(parentId) ?? String(parentId))} is not a string; entry read as a root`));
    goodParent = null;
  }
  return { id: goodId, parentId: goodParent };
}

/** Parses a session and walks its leaf's branch: `{session, branch}`, the branch oldest first. */
export function read(input: string | Uint8Array, opts: ParseOptions = {}): { session: ParsedSession; branch: Entry[] } {
  const session = parse(input, opts);
  return { session, branch: branch(session) };
}

/**
 * The kept records' original line bytes, each followed by "\n" (a final line that had none keeps
 * none). For a clean file this is the file itself, byte for byte; skipped lines are left out.
 */
export function serialize(session: ParsedSession, originalBytes: Uint8Array): Uint8Array {
  let size = 0;
  const n = session.records.length;
  const newline = (r: SessionRecord, i: number) => (originalBytes[r.end] === 10 || i < n - 1 ? 1 : 0);
  session.records.forEach((r, i) => (size += r.end - r.start + newline(r, i)));
  const out = new Uint8Array(size);
  let at = 0;
  session.records.forEach((r, i) => {
    out.set(originalBytes.subarray(r.start, r.end), at);
    at += r.end - r.start;
    if (newline(r, i)) out[at++] = 10;
  });
  return out;
}
