// The one line pass over a session file (§0.1): framing, title slot and header, migration v1/v2,
// the envelope checks, validation, then the tree check. `parse` keeps every record of it; the
// digest the library keeps (digest.ts) keeps a slim copy of each entry instead, so memory stays
// bounded by the number of entries, not the size of the file.
//
// Entries are finished (migrated, checked, validated) as they arrive when the header came first
// and needs no v1 step, as in almost every file; otherwise (no header yet, a v1 file, whose
// compactions may point at later entries) they wait for the end and are finished there, in order,
// exactly as a reader of the whole file would.
import { EntryMap } from '../tree/entry-map.ts';
import { classifyRecord, headerProblems, newHead, versionOf } from './head.ts';
import type { RecordVisitor } from './jsonl.ts';
import { migrate, migrateV2Entry } from './migrate.ts';
import { clip, problem } from './problems.ts';
import { entryProblem } from '../schema/schemas.ts';
import { applyTitleSlot } from './title-slot.ts';
import { checkTree } from '../tree/tree.ts';
import type { Entry, Header, ParsedSession, Problem, SessionRecord } from '../schema/types.ts';

/** What a line pass is told and asked as it reads. */
export interface LinePassOptions {
  /** Validate each entry against its zod schema and report `invalid-entry` (default true). */
  validate?: boolean;
  /**
   * Only the first `invalid-entry` problem says which fields failed; later ones name the entry's
   * type alone (for a caller that keeps the count of problems and the first one, as the digest).
   */
  firstEntryDetailOnly?: boolean;
  /** Keep every record with its byte range (what `parse` gives; `serialize` needs them). */
  records?: boolean;
  /** Each record as the file holds it (before migration), its place in the file and its line's text. */
  onRecord?(value: Record<string, unknown>, kind: SessionRecord['kind'], text: string): void;
  /** Each entry once finished, in file order, with its index; returns what the pass keeps of it (default: the entry itself). */
  onEntry?(entry: Entry, index: number): Entry;
}

/** What the pass found in the whole file: the parsed session (without its name; its entries as `onEntry` kept them) and the header's line. */
export interface LinePassResult extends Omit<ParsedSession, 'file'> {
  /** Line of the header (0 when none). */
  headerLine: number;
}

/** A pass fed records (`visit`, from the framing of text or bytes); `finish` takes the file's line count. */
export interface LinePass {
  problems: Problem[];
  visit: RecordVisitor;
  /** The header the file is read by, once seen (a later one is ignored, with a problem). */
  header(): Header | null;
  finish(lineCount: number): LinePassResult;
}

/** Starts a line pass. */
export function linePass(opts: LinePassOptions = {}): LinePass {
  const validate = opts.validate !== false;
  const problems: Problem[] = [];
  const records: SessionRecord[] = [];
  const head = newHead();
  const entries: Entry[] = [];
  const entryLines: number[] = [];
  // Entries left for the end (see the module description); null once entries are finished as they come.
  let waiting: { entries: Entry[]; lines: number[] } | null = null;
  let decided = false;
  let needsV2 = false;
  let invalidSeen = false;

  const finishEntry = (entry: Entry, line: number) => {
    if (typeof entry.id !== 'string' || (entry.parentId != null && typeof entry.parentId !== 'string')) {
      const fixed = checkEnvelope(entry.id, entry.parentId, line, problems);
      if (fixed.id === undefined) delete entry.id;
      if (fixed.parentId !== entry.parentId) entry.parentId = fixed.parentId;
    }
    if (validate) {
      const bad = entryProblem(entry, line, !(opts.firstEntryDetailOnly && invalidSeen));
      if (bad) {
        invalidSeen = true;
        problems.push(bad);
      }
    }
    const kept = opts.onEntry ? opts.onEntry(entry, entries.length) : entry;
    entries.push(kept);
    entryLines.push(line);
  };

  const visit: RecordVisitor = (value, line, start, end, text) => {
    const kind = classifyRecord(head, problems, value.type, value, line);
    if (opts.records) records.push({ line, start, end, kind, value: value as Entry });
    opts.onRecord?.(value, kind, text);
    if (kind !== 'entry') return;
    const entry = value as Entry;
    if (!decided) {
      decided = true;
      const version = versionOf(head.header);
      if (head.header === null || version < 2) waiting = { entries: [], lines: [] };
      else needsV2 = version < 3;
    }
    if (waiting) {
      waiting.entries.push(entry);
      waiting.lines.push(line);
      return;
    }
    if (needsV2) migrateV2Entry(entry);
    finishEntry(entry, line);
  };

  const finish = (lineCount: number): LinePassResult => {
    const { header, titleSlot } = head;
    problems.push(...headerProblems(header, head.headerLine, head.firstObjectLine));
    if (header && titleSlot) applyTitleSlot(header, titleSlot);
    const version = versionOf(header);
    const late = waiting as { entries: Entry[]; lines: number[] } | null;
    if (late) {
      if (header) migrate(late.entries, late.lines, version);
      for (let i = 0; i < late.entries.length; i++) finishEntry(late.entries[i], late.lines[i]);
    }
    // The tree reads the kept entries' envelopes (as finishEntry left them) in place.
    const tree = checkTree({
      count: entries.length,
      idAt: (i) => entries[i].id as string | undefined,
      parentAt: (i) => entries[i].parentId as string | null | undefined,
      lines: entryLines,
    });
    problems.push(...tree.problems);
    if (problems.length > 1) problems.sort((a, b) => a.line - b.line);
    return {
      isSession: header !== null,
      header,
      titleSlot,
      version,
      headerLine: head.headerLine,
      records,
      entries,
      entryLines,
      byId: new EntryMap(tree.indexById, entries),
      indexById: tree.indexById,
      leafId: tree.leafIndex < 0 ? null : (entries[tree.leafIndex].id as string),
      problems,
      lineCount,
    };
  };
  return { problems, visit, header: () => head.header, finish };
}

/**
 * The id and parentId an entry takes part in the tree with: a non-string id is dropped and a
 * non-string parentId read as null (a root), each reported as `invalid-entry` on the line.
 * Shared by the line pass and `indexEnvelopes`.
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
