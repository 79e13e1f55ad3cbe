// The layout of a stored envelope index (envelope-file.ts) and the checksum its parts carry (also its
// appended blocks', envelope-records.ts).
import type { Header, Problem, SessionRecord, TitleSlot } from '../schema/types.ts';

/**
 * FNV-1a style over 32-bit words (then the last bytes): a damaged index (a flipped bit in an
 * offset) must be refused, not read. Each step is a bijection of the running hash, so any one
 * changed word changes the result; a word at a time is 4× fewer steps than bytes (RHOENV1 hashed bytes).
 */
export function checksum(bytes: Uint8Array): number {
  let h = 0x811c9dc5;
  // Words need 4-byte alignment: an unaligned view is copied (the same bytes give the same hash).
  if (bytes.byteOffset % 4 !== 0) bytes = bytes.slice();
  const words = bytes.length >>> 2;
  if (words) {
    const w = new Uint32Array(bytes.buffer, bytes.byteOffset, words);
    for (let i = 0; i < words; i++) h = Math.imul(h ^ w[i], 0x01000193);
  }
  for (let i = words * 4; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return h >>> 0;
}

/** The JSON part of a stored index. */
export interface Meta {
  size: number;
  fingerprint: string;
  count: number;
  isSession: boolean;
  header: Header | null;
  titleSlot: TitleSlot | null;
  version: number;
  headRecords: SessionRecord[];
  typeNames: string[];
  /** Every id, one after another (their lengths, -1 for none, are in the binary part): one string parses far faster than 20,000. */
  idText: string;
  /** Parents that are no entry's id (orphans), by position; the others are stored as their parent's position. */
  otherParents: Record<string, string>;
  /** The problems of lines and of the header; those of the tree are computed again on load. */
  problems: Problem[];
  lineCount: number;
}

/** Per entry: line, start, end and parent as float64, then its id's length as int32, then the type's code as uint16. */
export const ENTRY_BYTES = 4 * 8 + 4 + 2;
/** Parent references that are not a position: null, absent, or an id no entry has (kept in the meta). */
export const PARENT_NULL = -1;
export const PARENT_NONE = -2;
export const PARENT_OTHER = -3;

/** A stored index's parts as they are laid out (entries in file order; numbers: lines, starts, ends, parents, `count` each). */
export interface StoredParts {
  meta: Meta;
  count: number;
  numbers: Float64Array;
  idLengths: Int32Array;
  codes: Uint16Array;
}
