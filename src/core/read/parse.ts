// Reading a session file (§0.1): one pass over the lines, then migration, then the tree check.
export { headerProblems, isHeader, versionOf } from './head.ts';
import { forEachRecord, recordStream } from './record-stream.ts';
import { migrate } from './migrate.ts';
import { clip, problem } from './problems.ts';
import { entryProblem } from '../schema/schemas.ts';
import { applyTitleSlot } from './title-slot.ts';
import { classifyRecord, headerProblems, newHead, versionOf, type HeadState } from './head.ts';
import { branch, checkTree } from '../tree/tree.ts';
import { EntryMap } from '../tree/entry-map.ts';
import type { RecordVisitor } from './jsonl.ts';
import type { Entry, ParseOptions, ParsedSession, Problem, SessionRecord } from '../schema/types.ts';

/** What the line pass collects before migration and the tree check. */
interface LinePass {
  problems: Problem[];
  records: SessionRecord[];
  entries: Entry[];
  entryLines: number[];
  head: HeadState;
  lineCount: number;
}

// The line pass's visitor: sorts records into title slot, headers and entries.
function newPass(): { pass: LinePass; visit: RecordVisitor } {
  const pass: LinePass = { problems: [], records: [], entries: [], entryLines: [], head: newHead(), lineCount: 0 };
  const { problems, records, entries, entryLines, head } = pass;
  const visit: RecordVisitor = (value, line, start, end) => {
    const kind = classifyRecord(head, problems, value.type, value, line);
    records.push({ line, start, end, kind, value: value as Entry });
    if (kind !== 'entry') return;
    entries.push(value as Entry);
    entryLines.push(line);
  };
  return { pass, visit };
}

/**
 * Parses a session file's text or bytes: every record in file order with its byte range, the
 * header, the omp title slot, the entries (v1/v2 migrated in memory), the id index, the leaf and
 * every problem with its line. Never throws on bad input.
 */
export function parse(input: string | Uint8Array, opts: ParseOptions = {}): ParsedSession {
  if (typeof input !== 'string') return parseChunks([input], opts);
  const { pass, visit } = newPass();
  pass.lineCount = forEachRecord(input, pass.problems, visit);
  return finishParse(pass, opts);
}

/** A session parser fed a file's bytes in order, a piece at a time: `finish()` gives what `parse` gives for the whole file. */
export interface SessionParser {
  push(chunk: Uint8Array): void;
  finish(): ParsedSession;
}

/**
 * Parses a session from its bytes as they are read (a file read in chunks is never held whole,
 * so opening needs the parsed values and one chunk, not the file besides). Chunks may be reused
 * by the caller once `push` returns.
 */
export function sessionParser(opts: ParseOptions = {}): SessionParser {
  const { pass, visit } = newPass();
  const stream = recordStream(pass.problems, visit);
  return {
    push: (chunk) => stream.push(chunk),
    finish() {
      pass.lineCount = stream.end();
      return finishParse(pass, opts);
    },
  };
}

/** `parse` of the bytes the chunks hold one after another. */
export function parseChunks(chunks: Iterable<Uint8Array>, opts: ParseOptions = {}): ParsedSession {
  const parser = sessionParser(opts);
  for (const chunk of chunks) parser.push(chunk);
  return parser.finish();
}

/** Migration, the envelope checks, validation and the tree check, after the line pass. */
function finishParse(pass: LinePass, opts: ParseOptions): ParsedSession {
  const { problems, entries, entryLines } = pass;
  const { header, titleSlot } = pass.head;
  problems.push(...headerProblems(header, pass.head.headerLine, pass.head.firstObjectLine));
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
export function checkEnvelope(
  id: unknown,
  parentId: unknown,
  line: number,
  problems: Problem[],
): { id: string | undefined; parentId: string | null | undefined } {
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
