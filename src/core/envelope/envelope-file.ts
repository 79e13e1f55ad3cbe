// The envelope index as a file kept beside its session (so reopening reads it and the bodies on
// screen, never the whole session), and its extension by appended lines. Pure: bytes in, bytes
// out; the worker decides where they live. A stored index that is damaged, from another format
// version or for other bytes decodes to null, and the caller rebuilds it from the session.
import type { EnvelopeIndex } from './envelopes.ts';
import { checksum, ENTRY_BYTES, type Meta, PARENT_NONE, PARENT_NULL, PARENT_OTHER, type StoredParts } from './envelope-layout.ts';
import { mergeRecords } from './envelope-merge.ts';
import { decodeRecordBlocks, encodeRecordBlock, type IndexState } from './envelope-records.ts';
import { arrayNodes, checkTree } from '../tree/tree.ts';
import type { Problem } from '../schema/types.ts';

export { checksum, ENTRY_BYTES, PARENT_NONE, PARENT_NULL, PARENT_OTHER };

/**
 * RHOENV4: a parent is stored as the position of the LAST entry with its id (the one the id map
 * keeps), so a walk needs no id map (envelope-reopen.ts); blocks of appended entries follow
 * (envelope-records.ts), the first (with none) written with the index.
 */
export const MAGIC = 'RHOENV4\n';
/** Bytes at the start and at the end of the covered part of the session kept in the file, to tell an append from other bytes. */
export const FINGERPRINT_BYTES = 64;

/** Magic, then the meta's length and the checksum of the rest of the index before its blocks (u32 each, little-endian). */
export const HEAD = MAGIC.length + 8;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function hex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

/**
 * What identifies the first `size` bytes of a session for its stored index: their length, their
 * first and their last FINGERPRINT_BYTES bytes (the header line with the session's id, and where an
 * append would start). `read` gives bytes [start, end) of the session.
 */
export function fingerprintOf(size: number, read: (start: number, end: number) => Uint8Array): string {
  return `${size}:${hex(read(0, Math.min(size, FINGERPRINT_BYTES)))}:${hex(read(Math.max(0, size - FINGERPRINT_BYTES), size))}`;
}

export const problemKey = (p: Problem) => `${p.line}\u0000${p.code}\u0000${p.message}`;

/** The index's tree (position by id, leaf, tree problems), as indexEnvelopes computes it. */
export function treeOf(index: Pick<EnvelopeIndex, 'ids' | 'parentIds' | 'lines'>) {
  return checkTree(arrayNodes(index.ids, index.parentIds, index.lines));
}

/** The index as bytes, with the fingerprint (`fingerprintOf`) of the part of the session it covers. */
export function encodeEnvelopeIndex(index: EnvelopeIndex, fingerprint: string): Uint8Array {
  const count = index.ids.length;
  const treeProblems = new Set(treeOf(index).problems.map(problemKey));
  const typeNames: string[] = [];
  const codeOf = new Map<string, number>();
  const codes = new Uint16Array(count);
  for (let i = 0; i < count; i++) {
    const type = index.types[i];
    if (type === undefined) continue;
    let code = codeOf.get(type);
    if (code === undefined) {
      // Past 65,535 distinct types the index is not worth keeping (the caller reads the file instead).
      if (typeNames.length >= 0xfffe) throw new RangeError('too many entry types to store');
      typeNames.push(type);
      codeOf.set(type, (code = typeNames.length));
    }
    codes[i] = code;
  }
  // A parent is mostly another entry's id: its position is 8 bytes where the id would be a string to
  // parse. The position of the last entry with that id (the id map's): the one a branch walk goes to.
  const lastAt = index.indexById;
  const parents = new Float64Array(count);
  const otherParents: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    const parent = index.parentIds[i];
    const at = typeof parent === 'string' ? lastAt.get(parent) : undefined;
    if (at !== undefined) parents[i] = at;
    else if (parent === null) parents[i] = PARENT_NULL;
    else if (parent === undefined) parents[i] = PARENT_NONE;
    else {
      parents[i] = PARENT_OTHER;
      otherParents[i] = parent;
    }
  }
  const meta: Meta = {
    size: index.size,
    fingerprint,
    count,
    isSession: index.isSession,
    header: index.header,
    titleSlot: index.titleSlot,
    version: index.version,
    headRecords: index.headRecords,
    typeNames,
    idText: index.ids.map((id) => id ?? '').join(''),
    otherParents,
    problems: index.problems.filter((p) => !treeProblems.has(problemKey(p))),
    lineCount: index.lineCount,
  };
  const json = encoder.encode(JSON.stringify(meta));
  const numbersAt = Math.ceil((HEAD + json.length) / 8) * 8;
  const out = new Uint8Array(numbersAt + count * ENTRY_BYTES);
  out.set(encoder.encode(MAGIC), 0);
  out.set(json, HEAD);
  const numbers = new Float64Array(out.buffer, numbersAt, count * 4);
  numbers.set(index.lines, 0);
  numbers.set(index.starts, count);
  numbers.set(index.ends, count * 2);
  numbers.set(parents, count * 3);
  const idLengths = new Int32Array(out.buffer, numbersAt + count * 32, count);
  for (let i = 0; i < count; i++) idLengths[i] = index.ids[i]?.length ?? -1;
  new Uint8Array(out.buffer, numbersAt + count * 36, count * 2).set(new Uint8Array(codes.buffer));
  const view = new DataView(out.buffer);
  view.setUint32(MAGIC.length, json.length, true);
  view.setUint32(MAGIC.length + 4, checksum(out.subarray(HEAD)), true);
  const state: IndexState = {
    size: index.size,
    fingerprint,
    count,
    lineCount: index.lineCount,
    // Appended lines are indexed alone only in a v2+ session (envelope-append.ts `growable`; its last byte is checked at the append).
    growable: index.isSession && index.header !== null && index.version >= 2,
    baseBytes: out.length,
  };
  const block = encodeRecordBlock(state, { types: [], ids: [], parentIds: [], lines: [], starts: [], ends: [] });
  const file = new Uint8Array(out.length + block.length);
  file.set(out, 0);
  file.set(block, out.length);
  return file;
}

/** A stored index read back: the index (bodies come from `read`) and the fingerprint of the bytes it covers. */
export interface StoredEnvelopeIndex {
  index: EnvelopeIndex;
  fingerprint: string;
}

/** Assembles an index from its parts, computing the tree and sorting problems as indexEnvelopes does. */
export function assemble(
  parts: Omit<EnvelopeIndex, 'indexById' | 'leafId' | 'problems' | 'bytes'> & { problems: Problem[] },
  read: (start: number, end: number) => Uint8Array,
): EnvelopeIndex {
  const tree = treeOf(parts);
  const problems = [...parts.problems, ...tree.problems];
  if (problems.length > 1) problems.sort((a, b) => a.line - b.line);
  return {
    ...parts,
    bytes: new Uint8Array(0),
    read,
    indexById: tree.indexById,
    leafId: tree.leafIndex < 0 ? null : (parts.ids[tree.leafIndex] as string),
    problems,
  };
}

/** A stored index's parts with its appended blocks read in, checked (magic, checksums, lengths, meta's shape); null when it is not one this code wrote. May throw on damage. */
export function storedParts(file: Uint8Array): StoredParts | null {
  if (file.length < HEAD || decoder.decode(file.subarray(0, MAGIC.length)) !== MAGIC) return null;
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const jsonLength = view.getUint32(MAGIC.length, true);
  if (HEAD + jsonLength > file.length) return null;
  const meta = JSON.parse(decoder.decode(file.subarray(HEAD, HEAD + jsonLength))) as Meta;
  const count = meta.count;
  const numbersAt = Math.ceil((HEAD + jsonLength) / 8) * 8;
  const baseEnd = numbersAt + count * ENTRY_BYTES;
  if (!Number.isInteger(count) || count < 0 || baseEnd > file.length) return null;
  if (view.getUint32(MAGIC.length + 4, true) !== checksum(file.subarray(HEAD, baseEnd))) return null;
  if (typeof meta.idText !== 'string' || typeof meta.otherParents !== 'object' || meta.otherParents === null) return null;
  const blocks = decodeRecordBlocks(file, baseEnd);
  if (!blocks || blocks.some((b) => b.state.baseBytes !== baseEnd)) return null;
  // Copied out: the file's buffer need not be 8-byte aligned where the numbers start.
  const numbers = new Float64Array(file.slice(numbersAt, numbersAt + count * 32).buffer);
  const idLengths = new Int32Array(file.slice(numbersAt + count * 32, numbersAt + count * 36).buffer);
  const codes = new Uint16Array(file.slice(numbersAt + count * 36, baseEnd).buffer);
  return mergeRecords({ meta, count, numbers, idLengths, codes }, blocks);
}

/** Reads a stored index; null when it is not one this code wrote, or damaged. Never throws. */
export function decodeEnvelopeIndex(
  file: Uint8Array,
  read: (start: number, end: number) => Uint8Array,
  opts: { file?: string } = {},
): StoredEnvelopeIndex | null {
  try {
    const stored = storedParts(file);
    if (!stored) return null;
    const { meta, count, numbers, idLengths, codes } = stored;
    const ids: (string | undefined)[] = [];
    let at = 0;
    for (let i = 0; i < count; i++) {
      const length = idLengths[i];
      if (length < 0) ids.push(undefined);
      else {
        ids.push(meta.idText.slice(at, at + length));
        at += length;
      }
    }
    if (at !== meta.idText.length) return null;
    // One pass for the rest (a parent may be a later entry, so the ids come first).
    const parentIds: (string | null | undefined)[] = [];
    const lines: number[] = [];
    const starts: number[] = [];
    const ends: number[] = [];
    const types: (string | undefined)[] = [];
    const { typeNames, otherParents, size } = meta;
    for (let i = 0; i < count; i++) {
      const ref = numbers[count * 3 + i];
      if (ref >= 0) {
        const parent = ref < count && Number.isInteger(ref) ? ids[ref] : undefined;
        if (parent === undefined) return null;
        parentIds.push(parent);
      } else if (ref === PARENT_NULL) parentIds.push(null);
      else if (ref === PARENT_NONE) parentIds.push(undefined);
      else if (ref === PARENT_OTHER && typeof otherParents[i] === 'string') parentIds.push(otherParents[i]);
      else return null;
      const line = numbers[i];
      const start = numbers[count + i];
      const end = numbers[count * 2 + i];
      if (!(start >= 0 && end >= start && end <= size && line >= 1)) return null;
      lines.push(line);
      starts.push(start);
      ends.push(end);
      const c = codes[i];
      const type = c === 0 ? undefined : typeNames[c - 1];
      if (type === undefined && c !== 0) return null;
      types.push(type);
    }
    const index = assemble(
      {
        file: opts.file,
        size: meta.size,
        isSession: meta.isSession,
        header: meta.header,
        titleSlot: meta.titleSlot,
        version: meta.version,
        headRecords: meta.headRecords,
        types,
        ids,
        parentIds,
        lines,
        starts,
        ends,
        problems: meta.problems,
        lineCount: meta.lineCount,
      },
      read,
    );
    return { index, fingerprint: meta.fingerprint };
  } catch {
    return null;
  }
}
