// The blocks that follow a stored envelope index (envelope-file.ts) in its file: an append adds the
// envelopes of just its lines as one block at the end, so it writes the entry's bytes and reads only
// the last block (`TRAILER_BYTES` then its payload), never the index before it. Every file ends with
// a block (the index's own first one holds no entries) whose state says what the whole file covers.
// A block is its JSON payload, then the payload's length and checksum (u32 each, little-endian) and
// `RECORDS_MAGIC`: read from the end, a torn block (a crash mid-append) fails its length, magic or
// checksum, and the whole stored index is refused (then made again from the session).
import { checksum, type StoredParts } from './envelope-layout.ts';
import type { EnvelopeIndex } from './envelopes.ts';

export const RECORDS_MAGIC = 'RHOENVR\n';
/** Length, checksum, magic: what ends every block. */
export const TRAILER_BYTES = 8 + RECORDS_MAGIC.length;

/** What the stored index covers after a block: enough for the next append, read without the rest. */
export interface IndexState {
  /** Bytes of the session covered, and their fingerprint (envelope-file.ts `fingerprintOf`). */
  size: number;
  fingerprint: string;
  /** Entries and lines so far. */
  count: number;
  lineCount: number;
  /** Whether appended lines may be indexed alone (a v2+ session: envelope-append.ts `growable`). */
  growable: boolean;
  /** Bytes of the index before the first block (the blocks after it are what a compaction folds in). */
  baseBytes: number;
}

/** The envelopes of the entries a block adds, in file order. */
export type RecordEntries = Pick<EnvelopeIndex, 'types' | 'ids' | 'parentIds' | 'lines' | 'starts' | 'ends'>;

/** A block read back. */
export interface RecordBlock {
  state: IndexState;
  entries: RecordEntries;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

// JSON has no undefined in arrays: an absent id or type is null, an absent parent 0 (null is a parent of its own).
interface Payload {
  state: IndexState;
  t: (string | null)[];
  i: (string | null)[];
  p: (string | null | 0)[];
  l: number[];
  s: number[];
  e: number[];
}

/** One block: `entries` (none for the index's own first block) and the state after them. */
export function encodeRecordBlock(state: IndexState, entries: RecordEntries): Uint8Array {
  const payload: Payload = {
    state,
    t: entries.types.map((t) => t ?? null),
    i: entries.ids.map((id) => id ?? null),
    p: entries.parentIds.map((p) => (p === undefined ? 0 : p)),
    l: entries.lines,
    s: entries.starts,
    e: entries.ends,
  };
  const json = encoder.encode(JSON.stringify(payload));
  const out = new Uint8Array(json.length + TRAILER_BYTES);
  out.set(json, 0);
  const view = new DataView(out.buffer);
  view.setUint32(json.length, json.length, true);
  view.setUint32(json.length + 4, checksum(json), true);
  out.set(encoder.encode(RECORDS_MAGIC), json.length + 8);
  return out;
}

/** The payload length a block's trailer (its last TRAILER_BYTES bytes) gives, or null when they are no trailer. */
export function trailerLength(trailer: Uint8Array): number | null {
  if (trailer.length !== TRAILER_BYTES || decoder.decode(trailer.subarray(8)) !== RECORDS_MAGIC) return null;
  return new DataView(trailer.buffer, trailer.byteOffset, 8).getUint32(0, true);
}

const isCount = (n: unknown): n is number => Number.isInteger(n) && (n as number) >= 0;

/** A block from its bytes (payload then trailer); null when damaged or not one. Never throws. */
export function decodeRecordBlock(block: Uint8Array): RecordBlock | null {
  try {
    const length = trailerLength(block.subarray(block.length - TRAILER_BYTES));
    if (length === null || length !== block.length - TRAILER_BYTES) return null;
    const json = block.subarray(0, length);
    if (new DataView(block.buffer, block.byteOffset + length + 4, 4).getUint32(0, true) !== checksum(json)) return null;
    const p = JSON.parse(decoder.decode(json)) as Payload;
    const { state } = p;
    if (!state || !isCount(state.size) || !isCount(state.count) || !isCount(state.lineCount) || !isCount(state.baseBytes)) return null;
    if (typeof state.fingerprint !== 'string' || typeof state.growable !== 'boolean') return null;
    const n = p.l.length;
    if (![p.t, p.i, p.p, p.s, p.e].every((a) => Array.isArray(a) && a.length === n)) return null;
    return {
      state,
      entries: {
        types: p.t.map((t) => t ?? undefined),
        ids: p.i.map((id) => id ?? undefined),
        parentIds: p.p.map((x) => (x === 0 ? undefined : x)),
        lines: p.l,
        starts: p.s,
        ends: p.e,
      },
    };
  } catch {
    return null;
  }
}

/** The blocks of `file` from byte `from` to its end, in order; null when one is damaged, torn or missing. */
export function decodeRecordBlocks(file: Uint8Array, from: number): RecordBlock[] | null {
  const blocks: RecordBlock[] = [];
  let end = file.length;
  while (end > from) {
    if (end - from < TRAILER_BYTES) return null;
    const length = trailerLength(file.subarray(end - TRAILER_BYTES, end));
    if (length === null || end - TRAILER_BYTES - length < from) return null;
    const start = end - TRAILER_BYTES - length;
    const block = decodeRecordBlock(file.subarray(start, end));
    if (!block) return null;
    blocks.push(block);
    end = start;
  }
  return blocks.length ? blocks.reverse() : null;
}

/**
 * `base` and the blocks after it when none of them adds an entry (an index written whole, and
 * closed again since): its parts as of the last block. Null when the blocks do not follow `base`;
 * undefined when they add entries (envelope-merge.ts merges those).
 */
export function withoutAppended(base: StoredParts, blocks: RecordBlock[]): StoredParts | null | undefined {
  if (!blocks.length) return null;
  let count = base.count;
  for (const [k, { state, entries }] of blocks.entries()) {
    const added = entries.lines.length;
    if (k === 0 ? added !== 0 || state.count !== base.count : state.count !== count + added) return null;
    count = state.count;
  }
  if (count !== base.count) return undefined;
  const { size, fingerprint, lineCount } = blocks[blocks.length - 1].state;
  return { ...base, meta: { ...base.meta, size, fingerprint, lineCount } };
}
