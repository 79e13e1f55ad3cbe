// The fast envelope index: one pass over the lines recording each entry's type, id, parentId, byte
// range and line WITHOUT JSON.parse of the bodies, so a branch or an outline of a 100 MB session
// is known at once and only the entries on screen (or sent to a model) are parsed, by `bodyOf`.
// Everything it reports agrees with `parse(input, {validate: false})`; a test checks that.
import { newEnvelopeLine, readEnvelopeLine } from './envelope-line.ts';
import { decodeLine } from '../read/jsonl.ts';
import { CURRENT_SESSION_VERSION, migrateV1Entry, migrateV2Entry, v1Id } from '../read/migrate.ts';
import { classifyRecord, headerProblems, newHead, versionOf } from '../read/head.ts';
import { checkEnvelope } from '../read/parse.ts';
import { applyTitleSlot } from '../read/title-slot.ts';
import { arrayNodes, checkTree, childPositions, leafFrom, leafPositions, walkIndices, type PositionTree } from '../tree/tree.ts';
import type { Entry, Header, Problem, SessionRecord, TitleSlot } from '../schema/types.ts';

/** Envelopes of every entry of a file, as parallel arrays in file order (entry i = position i). */
export interface EnvelopeIndex {
  file?: string;
  /** The file's bytes (bodies are read from here); empty when the index was loaded from its stored copy (then `read` gives them). */
  bytes: Uint8Array;
  /** Bytes of the file the index covers. */
  size: number;
  /** Reads bytes [start, end) of the file, for an index without `bytes` (envelope-file.ts). */
  read?: (start: number, end: number) => Uint8Array;
  isSession: boolean;
  header: Header | null;
  titleSlot: TitleSlot | null;
  /** As in the file (1 when the header has no version). */
  version: number;
  /** The title slot and header records (entries are in the arrays below). */
  headRecords: SessionRecord[];
  /** Per entry: its `type` when a string. */
  types: (string | undefined)[];
  /** Per entry: its id (v1: derived from the line, as `parse` does). */
  ids: (string | undefined)[];
  /** Per entry: its parentId (v1: the previous entry). */
  parentIds: (string | null | undefined)[];
  /** Per entry: 1-based line and byte range (end excludes "\n"). */
  lines: number[];
  starts: number[];
  ends: number[];
  /** Position by id; a later duplicate wins. */
  indexById: Map<string, number>;
  /** Last entry with an id. */
  leafId: string | null;
  problems: Problem[];
  lineCount: number;
}

const encoder = new TextEncoder();

/**
 * Indexes the envelopes of a session file in one pass, parsing only the header, the title slot,
 * the last line when unterminated, and lines the scanner cannot decide. Never throws on bad input.
 * Text is indexed as its UTF-8 bytes (offsets and bodies come from them anyway).
 */
export function indexEnvelopes(input: string | Uint8Array, opts: { file?: string } = {}): EnvelopeIndex {
  const bytes = typeof input === 'string' ? encoder.encode(input) : input;
  const problems: Problem[] = [];
  const headRecords: SessionRecord[] = [];
  const types: (string | undefined)[] = [];
  const rawIds: unknown[] = [];
  const rawParents: unknown[] = [];
  const lines: number[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  const head = newHead();

  // Each line as the shared line reader gives it (scanned where it lies, else parsed), sorted into
  // title slot, headers and entries.
  const length = bytes.length;
  const at = newEnvelopeLine();
  let pos = 0;
  let lineCount = 0;
  while (pos < length) {
    const line = ++lineCount;
    readEnvelopeLine(bytes, pos, line, problems, at);
    pos = at.next;
    const { scanned, value } = at;
    if (scanned === null && value === null) continue;
    const type = scanned ? scanned.type : value?.type;
    const kind = classifyRecord(head, problems, type, value, line);
    if (kind !== 'entry') {
      headRecords.push({ line, start: at.start, end: at.end, kind, value: value as Header });
      continue;
    }
    types.push(typeof type === 'string' ? type : undefined);
    rawIds.push(scanned ? scanned.id : value?.id);
    rawParents.push(scanned ? scanned.parentId : value?.parentId);
    lines.push(line);
    starts.push(at.start);
    ends.push(at.end);
  }

  const found = head.header;
  const slot = head.titleSlot;
  problems.push(...headerProblems(found, head.headerLine, head.firstObjectLine));
  if (found && slot) applyTitleSlot(found, slot);
  const version = versionOf(found);
  const ids: (string | undefined)[] = new Array(lines.length);
  const parentIds: (string | null | undefined)[] = new Array(lines.length);
  for (let i = 0; i < lines.length; i++) {
    if (found && version < 2) {
      ids[i] = v1Id(lines[i]);
      parentIds[i] = i === 0 ? null : v1Id(lines[i - 1]);
      continue;
    }
    const id = rawIds[i];
    const parentId = rawParents[i];
    if ((id === undefined || typeof id === 'string') && (parentId == null || typeof parentId === 'string')) {
      ids[i] = id as string | undefined;
      parentIds[i] = parentId as string | null | undefined;
      continue;
    }
    const fixed = checkEnvelope(id, parentId, lines[i], problems);
    ids[i] = fixed.id;
    parentIds[i] = fixed.parentId;
  }
  const tree = checkTree(arrayNodes(ids, parentIds, lines));
  problems.push(...tree.problems);
  if (problems.length > 1) problems.sort((a, b) => a.line - b.line);
  return {
    file: opts.file,
    bytes,
    size: bytes.length,
    isSession: found !== null,
    header: found,
    titleSlot: slot,
    version,
    headRecords,
    types,
    ids,
    parentIds,
    lines,
    starts,
    ends,
    indexById: tree.indexById,
    leafId: tree.leafIndex < 0 ? null : (ids[tree.leafIndex] as string),
    problems,
    lineCount,
  };
}

/**
 * The body of entry `i`, parsed now and migrated as `parse` would (v1 ids and parents, v2 roles);
 * null when the line turns out not to be a JSON object after all.
 */
export function bodyOf(index: EnvelopeIndex, i: number): Entry | null {
  const { text } = decodeLine(...lineBytes(index, i));
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const entry = value as Entry;
  if (index.header && index.version < 2) {
    const idOfEntry = (k: number) => (Number.isInteger(k) && k < index.ids.length ? index.ids[k] : undefined);
    migrateV1Entry(entry, index.ids[i] as string, index.parentIds[i] as string | null, idOfEntry);
  } else {
    if (index.ids[i] === undefined) delete entry.id;
    if (entry.parentId !== index.parentIds[i]) entry.parentId = index.parentIds[i];
  }
  if (index.header && index.version < CURRENT_SESSION_VERSION) migrateV2Entry(entry);
  return entry;
}

/** Entry i's line as (bytes, start, end): in the index's bytes, or read from the file. */
export function lineBytes(index: EnvelopeIndex, i: number): [Uint8Array, number, number] {
  const start = index.starts[i];
  const end = index.ends[i];
  if (!index.read || index.bytes.length >= end) return [index.bytes, start, end];
  // One byte before the line comes along so that offset 0 stays the file's start (decodeLine drops a BOM there only).
  const from = start > 0 ? start - 1 : 0;
  const bytes = index.read(from, end);
  return [bytes, start - from, bytes.length];
}

/** The bodies of entries at `indices` (for a window on screen or a branch sent to a model); unreadable ones left out. */
export function bodiesOf(index: EnvelopeIndex, indices: readonly number[]): Entry[] {
  const out: Entry[] = [];
  for (const i of indices) {
    const body = bodyOf(index, i);
    if (body) out.push(body);
  }
  return out;
}

/** Positions of the branch ending at `leafId` (default: the leaf), oldest first, with the problems met. */
export function walkIndexBranch(index: EnvelopeIndex, leafId?: string | null): { indices: number[]; problems: Problem[] } {
  return walkIndices(
    index.indexById,
    (i) => index.parentIds[i],
    (i) => index.lines[i],
    leafId === undefined ? index.leafId : leafId,
  );
}

/** Positions of the branch ending at `leafId` (default: the leaf = last entry with an id), oldest first. */
export function branchOfIndex(index: EnvelopeIndex, leafId?: string | null): number[] {
  return walkIndexBranch(index, leafId).indices;
}

/** The envelope index seen as a position tree (for children, leaves and leafOf). */
export function indexTree(index: EnvelopeIndex): PositionTree {
  return { key: index, size: index.ids.length, idAt: (i) => index.ids[i], parentIdAt: (i) => index.parentIds[i], indexById: index.indexById };
}

/** Positions of the entries whose parent is `id`, in file order; `null` gives roots and orphans. */
export function childrenOfIndex(index: EnvelopeIndex, id: string | null): number[] {
  return childPositions(indexTree(index), id);
}

/** Positions of the ends of every branch, in file order. */
export function leavesOfIndex(index: EnvelopeIndex): number[] {
  return leafPositions(indexTree(index));
}

/** The leaf reached from `id` by always taking the newest child. */
export function leafOfIndex(index: EnvelopeIndex, id: string): string | null {
  return leafFrom(indexTree(index), id);
}
