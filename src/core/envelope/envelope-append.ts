// Extending a stored envelope index (envelope-file.ts) by lines appended to its session, without
// reading the rest again: only lines the full scan would read the same way (plain entry lines whose
// envelope the scanner decides), in a v2+ session; anything else gives up and the file is indexed whole.
import { checkLine, NOT_PLAIN } from './envelope-check.ts';
import { assemble, problemKey, treeOf } from './envelope-file.ts';
import { scanCheckedLine } from './envelope-scan.ts';
import type { RecordEntries } from './envelope-records.ts';
import type { EnvelopeIndex } from './envelopes.ts';

/** The per-entry arrays of an index being grown by appended lines (copies: the index they came from is not changed). */
export type GrowingEntries = RecordEntries & { lineCount: number };

/** Copies of an index's per-entry arrays, to grow. */
export function growingEntries(index: EnvelopeIndex): GrowingEntries {
  const { types, ids, parentIds, lines, starts, ends, lineCount } = index;
  return { types: types.slice(), ids: ids.slice(), parentIds: parentIds.slice(), lines: lines.slice(), starts: starts.slice(), ends: ends.slice(), lineCount };
}

/**
 * Adds the entry lines of `bytes` (whole lines, the last ending in "\n"; file offset `base`) to
 * `into`; false when one is not a plain entry line whose envelope the scanner decides, i.e. one
 * the full scan might read another way (then `into` is partly grown and must be dropped).
 */
export function addPlainLines(into: GrowingEntries, bytes: Uint8Array, base: number): boolean {
  let pos = 0;
  while (pos < bytes.length) {
    // Only what the full scan would read the same way: a plain line, its envelope decided by the scanner.
    if (bytes[pos] !== 123) return false;
    const checked = checkLine(bytes, pos, bytes.length);
    const status = checked % 4;
    const stop = (checked - status) / 4;
    if (status === NOT_PLAIN || stop >= bytes.length) return false;
    const end = bytes[stop] === 10 ? stop : bytes[stop] === 13 && bytes[stop + 1] === 10 ? stop + 1 : -1;
    if (end < 0) return false;
    const scanned = scanCheckedLine(bytes, pos, stop, status);
    if (scanned === null || scanned.type === 'session') return false;
    into.lineCount++;
    into.types.push(scanned.type);
    into.ids.push(scanned.id);
    into.parentIds.push(scanned.parentId);
    into.lines.push(into.lineCount);
    into.starts.push(base + pos);
    into.ends.push(base + end);
    pos = end + 1;
  }
  return true;
}

/** Whether lines appended to the session `index` describes can be indexed by `addPlainLines` (a v2+ session whose bytes end in "\n"). */
export function growable(index: EnvelopeIndex, lastByte: number): boolean {
  return index.isSession && index.header !== null && index.version >= 2 && lastByte === 10 && index.size > 0;
}

/** `index` with the entries of `grown` (now `size` bytes): its tree and tree problems computed again. */
export function grownIndex(index: EnvelopeIndex, grown: GrowingEntries, size: number, read: (start: number, end: number) => Uint8Array): EnvelopeIndex {
  const treeProblems = new Set(treeOf(index).problems.map(problemKey));
  const { lineCount, ...entries } = grown;
  return assemble(
    {
      file: index.file,
      size,
      isSession: index.isSession,
      header: index.header,
      titleSlot: index.titleSlot,
      version: index.version,
      headRecords: index.headRecords,
      ...entries,
      problems: index.problems.filter((p) => !treeProblems.has(problemKey(p))),
      lineCount,
    },
    read,
  );
}

/**
 * The index of the session after `tail` (the bytes appended at `index.size`) was appended, without
 * reading the rest again; null when the tail is not a run of plain entry lines each ending in "\n",
 * the session is v1 (ids come from line numbers) or `lastByte` (the byte before the tail) is not
 * "\n": the caller then indexes the whole file.
 */
export function extendEnvelopeIndex(
  index: EnvelopeIndex,
  lastByte: number,
  tail: Uint8Array,
  read: (start: number, end: number) => Uint8Array,
): EnvelopeIndex | null {
  if (!growable(index, lastByte)) return null;
  const grown = growingEntries(index);
  if (!addPlainLines(grown, tail, index.size)) return null;
  return grownIndex(index, grown, index.size + tail.length, read);
}
