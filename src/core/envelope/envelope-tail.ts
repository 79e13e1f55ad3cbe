// The last screen of a session read from its end: the leaf's branch's last `n` entries with their
// bodies, reading lines backwards only as far as the branch walk needs, not the whole file. Exactly
// what the full envelope index gives (`bodiesOf(index, branchOfIndex(index).slice(-n))`): each line
// is read by the same line reader (envelope-line.ts); the leaf is the last entry with an id; a
// parent is looked for further back only while no line after the current frontier had its id, and
// the first one met going backwards is the latest with that id, the one the full index's id map
// keeps. Files where that walk cannot decide exactly (v1 ids come from line numbers; a head that is
// not the title slot and header on the first lines) give null: the caller indexes the file whole.
import { newEnvelopeLine, readEnvelopeLine } from './envelope-line.ts';
import { bodyOf, type EnvelopeIndex } from './envelopes.ts';
import { classifyRecord, newHead, versionOf } from '../read/head.ts';
import { checkEnvelope } from '../read/parse.ts';
import { applyTitleSlot } from '../read/title-slot.ts';
import { hasParent } from '../tree/tree.ts';
import type { Entry, Header, Problem, TitleSlot } from '../schema/types.ts';

/** What the tail gives: the head of the file and the last screen's entries, oldest first. */
export interface TailScreen {
  header: Header;
  titleSlot: TitleSlot | null;
  version: number;
  /** The last `n` entries of the leaf's branch, oldest first, with their bodies (as `bodiesOf`). */
  entries: Entry[];
  /** Their byte ranges in the file (end = the line's "\n" or the file's end). */
  starts: number[];
  ends: number[];
  /** Where the backward read stopped: bytes before it were not read (beyond the head). */
  readFrom: number;
}

/** Lines the head (title slot, header) may take before the tail way gives up. */
const HEAD_LINES = 4;

/** The end of the head (the byte after the header's line) and what it holds; null when it is not plain. */
function readHead(bytes: Uint8Array) {
  const head = newHead();
  const scratch: Problem[] = [];
  const at = newEnvelopeLine();
  let pos = 0;
  for (let line = 1; line <= HEAD_LINES && pos < bytes.length; line++) {
    readEnvelopeLine(bytes, pos, line, scratch, at);
    pos = at.next;
    if (at.scanned === null && at.value === null) continue;
    const type = at.scanned ? at.scanned.type : at.value?.type;
    const kind = classifyRecord(head, scratch, type, at.value, line);
    // An entry before the header: the full index has it, the tail way does not look for it.
    if (kind === 'entry') return null;
    if (head.header !== null) return { header: head.header, titleSlot: head.titleSlot, end: pos };
  }
  return null;
}

/**
 * The last `n` entries of the leaf's branch, read from the end of `bytes`; null when the file is
 * not one the tail way decides exactly (then use the full index). Never throws on bad input.
 */
export function tailScreen(bytes: Uint8Array, n: number): TailScreen | null {
  const head = readHead(bytes);
  if (!head) return null;
  const version = versionOf(head.header);
  if (version < 2) return null;
  const length = bytes.length;
  const headEnd = head.end;
  const scratch: Problem[] = [];
  const at = newEnvelopeLine();
  // The entries read so far, latest first (slot k), and the slot of the latest entry with each id.
  const ids: (string | undefined)[] = [];
  const parentIds: (string | null | undefined)[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  const slotById = new Map<string, number>();
  let frontier = length;
  let framingDiffers = false;

  // Reads the line before `frontier`: its slot, -1 when it is no entry, -2 when the head is reached.
  const readBack = (): number => {
    if (frontier <= headEnd) return -2;
    const end = frontier === length && bytes[length - 1] !== 10 ? length : frontier - 1;
    const start = end > headEnd ? bytes.lastIndexOf(10, end - 1) + 1 : headEnd;
    readEnvelopeLine(bytes, start, 0, scratch, at);
    frontier = start;
    // The reader finds the same end going forwards (the first "\n" from the start); checked all the same.
    if (at.end !== end) {
      framingDiffers = true;
      frontier = headEnd;
      return -2;
    }
    const { scanned, value } = at;
    if (scanned === null && value === null) return -1;
    // A parsed "session" line after the header is a head record (another header), not an entry.
    if (value && value.type === 'session') return -1;
    let id = scanned ? scanned.id : value?.id;
    let parentId = scanned ? scanned.parentId : value?.parentId;
    if (!((id === undefined || typeof id === 'string') && (parentId == null || typeof parentId === 'string'))) {
      ({ id, parentId } = checkEnvelope(id, parentId, 0, scratch));
    }
    const slot = ids.length;
    ids.push(id as string | undefined);
    parentIds.push(parentId as string | null | undefined);
    starts.push(start);
    ends.push(end);
    if (id !== undefined && !slotById.has(id as string)) slotById.set(id as string, slot);
    return slot;
  };

  // The leaf: the last entry with an id (none at all: an empty branch).
  let leaf = -1;
  while (leaf < 0) {
    const slot = readBack();
    if (slot === -2) break;
    if (slot >= 0 && ids[slot] !== undefined) leaf = slot;
  }
  // The walk from the leaf, as walkIndices goes: a missing parent or a cycle ends it.
  const path: number[] = [];
  const seen = new Set<number>();
  for (let slot: number | undefined = leaf < 0 ? undefined : leaf; slot !== undefined && path.length < n; ) {
    seen.add(slot);
    path.push(slot);
    const parentId = parentIds[slot];
    if (!hasParent(parentId)) break;
    let next = slotById.get(parentId);
    while (next === undefined) {
      const read = readBack();
      if (read === -2) break;
      if (read >= 0 && ids[read] === parentId) next = read;
    }
    if (next === undefined || seen.has(next)) break;
    slot = next;
  }
  if (framingDiffers) return null;
  path.reverse();
  if (head.titleSlot) applyTitleSlot(head.header, head.titleSlot);
  // The bodies as bodiesOf gives them, through an index of the path alone.
  const screen: EnvelopeIndex = {
    bytes,
    size: length,
    isSession: true,
    header: head.header,
    titleSlot: head.titleSlot,
    version,
    headRecords: [],
    types: path.map(() => undefined),
    ids: path.map((k) => ids[k]),
    parentIds: path.map((k) => parentIds[k]),
    lines: path.map(() => 0),
    starts: path.map((k) => starts[k]),
    ends: path.map((k) => ends[k]),
    indexById: new Map(),
    leafId: null,
    problems: [],
    lineCount: 0,
  };
  const out: TailScreen = { header: head.header, titleSlot: head.titleSlot, version, entries: [], starts: [], ends: [], readFrom: frontier };
  for (let i = 0; i < path.length; i++) {
    const body = bodyOf(screen, i);
    if (!body) continue;
    out.entries.push(body);
    out.starts.push(screen.starts[i]);
    out.ends.push(screen.ends[i]);
  }
  return out;
}
