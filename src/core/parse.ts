// Reading a session file (§0.1): one pass over the lines, then migration, then the tree check.
import { decodeInput, forEachLine, isValidUtf8, parseLine, type RawLine } from './jsonl.ts';
import { CURRENT_SESSION_VERSION, migrate } from './migrate.ts';
import { clip, problem } from './problems.ts';
import { entryProblem } from './schemas.ts';
import { applyTitleSlot, isTitleSlot, looksLikeTitleSlot } from './title-slot.ts';
import { branch, checkTree } from './tree.ts';
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

/**
 * Parses a session file's text or bytes: every record in file order with its byte range, the
 * header, the omp title slot, the entries (v1/v2 migrated in memory), the id index, the leaf and
 * every problem with its line. Never throws on bad input.
 */
export function parse(input: string | Uint8Array, opts: ParseOptions = {}): ParsedSession {
  const { bytes, text, validUtf8 } = decodeInput(input);
  const problems: Problem[] = [];
  const records: SessionRecord[] = [];
  const entries: Entry[] = [];
  const entryLines: number[] = [];
  let header: Header | null = null;
  let headerLine = 0;
  let titleSlot: TitleSlot | null = null;
  let firstObjectLine = 0;

  const lineCount = forEachLine(bytes, text, (raw: RawLine) => {
    if (!validUtf8 && !isValidUtf8(bytes, raw.start, raw.end)) {
      problems.push(problem(raw.line, 'invalid-utf8', 'line is not valid UTF-8; bad bytes read as U+FFFD'));
    }
    const parsed = parseLine(raw);
    if (!parsed.ok) {
      problems.push(parsed.problem);
      return;
    }
    const value = parsed.value;
    const at = { line: raw.line, start: raw.start, end: raw.end };
    if (raw.line === 1 && value.type === 'title') {
      if (isTitleSlot(value)) {
        titleSlot = value;
        records.push({ ...at, kind: 'title', value });
        return;
      }
      if (looksLikeTitleSlot(value)) problems.push(problem(raw.line, 'title-slot', 'first line looks like an omp title slot but is not a valid one; read as an entry'));
    }
    if (firstObjectLine === 0) firstObjectLine = raw.line;
    if (value.type === 'session') {
      records.push({ ...at, kind: 'header', value: value as Header });
      if (header === null && isHeader(value)) {
        header = value;
        headerLine = raw.line;
      } else if (header !== null) {
        problems.push(problem(raw.line, 'header-not-first', `another session header (the first is on line ${headerLine}); ignored`));
      }
      return;
    }
    records.push({ ...at, kind: 'entry', value: value as Entry });
    entries.push(value as Entry);
    entryLines.push(raw.line);
  });

  const found = header as Header | null;
  if (found === null) {
    problems.push(problem(firstObjectLine || 1, 'no-header', 'no session header (a first record with type "session" and a string id): not a session file'));
  } else if (headerLine !== firstObjectLine) {
    problems.push(problem(headerLine, 'header-not-first', `the session header is on line ${headerLine}, after other records`));
  }
  const slot = titleSlot as TitleSlot | null;
  if (found && slot) applyTitleSlot(found, slot);
  const version = versionOf(found);
  if (version > CURRENT_SESSION_VERSION) {
    problems.push(problem(headerLine, 'future-version', `version ${version} is newer than ${CURRENT_SESSION_VERSION}; read as version ${CURRENT_SESSION_VERSION}`));
  }
  if (found) migrate(entries, entryLines, version);
  normalizeEnvelopes(entries, entryLines, problems);
  if (opts.validate !== false) {
    for (let i = 0; i < entries.length; i++) {
      const bad = entryProblem(entries[i], entryLines[i]);
      if (bad) problems.push(bad);
    }
  }

  const nodes = entries.map((e, i) => ({ id: e.id, parentId: e.parentId, line: entryLines[i] }));
  const tree = checkTree(nodes);
  problems.push(...tree.problems);
  problems.sort((a, b) => a.line - b.line);
  const byId = new Map<string, Entry>();
  for (const [id, i] of tree.indexById) byId.set(id, entries[i]);

  return {
    file: opts.file,
    isSession: found !== null,
    header: found,
    titleSlot: slot,
    version,
    records,
    entries,
    entryLines,
    byId,
    indexById: tree.indexById,
    leafId: tree.leafIndex < 0 ? null : (entries[tree.leafIndex].id as string),
    problems,
    lineCount,
  };
}

// An id or parentId that is not a string cannot take part in the tree: the entry stays, without it.
function normalizeEnvelopes(entries: Entry[], lines: number[], problems: Problem[]): void {
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    if (e.id !== undefined && typeof e.id !== 'string') {
      problems.push(problem(lines[i], 'invalid-entry', `id ${clip(JSON.stringify(e.id))} is not a string; entry kept without an id`));
      delete e.id;
    }
    if (e.parentId !== undefined && e.parentId !== null && typeof e.parentId !== 'string') {
      problems.push(problem(lines[i], 'invalid-entry', `parentId ${clip(JSON.stringify(e.parentId))} is not a string; entry read as a root`));
      e.parentId = null;
    }
  }
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
