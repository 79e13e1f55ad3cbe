// A reopen's first screen straight from the stored envelope index (envelope-file.ts): the last `n`
// entries of the leaf's branch and their bodies, without building the whole index (no id strings
// for 20,000 entries, no id map, no tree check). Stored parents are positions of the entry the id
// map keeps (RHOENV3), so the walk goes position to position. The same answer as
// `decodeEnvelopeIndex` + `branchOfIndex` + `bodiesOf`, and null exactly where that decode is null:
// every check it makes on the file is made here too.
import { bodyOf, type EnvelopeIndex } from './envelopes.ts';
import { PARENT_NONE, PARENT_NULL, PARENT_OTHER, storedParts } from './envelope-file.ts';
import type { Entry, Header, TitleSlot } from '../schema/types.ts';

/** The last screen of a stored index, and what the caller checks it against (size and fingerprint). */
export interface StoredScreen {
  fingerprint: string;
  size: number;
  isSession: boolean;
  header: Header | null;
  titleSlot: TitleSlot | null;
  version: number;
  /** The last `n` entries of the leaf's branch, oldest first, with their bodies (as `bodiesOf`). */
  entries: Entry[];
  starts: number[];
  ends: number[];
}

/** The stored index's last screen; null when the file is not a stored index this code wrote, or damaged. Never throws. */
export function storedScreen(file: Uint8Array, read: (start: number, end: number) => Uint8Array, n: number): StoredScreen | null {
  try {
    const stored = storedParts(file);
    if (!stored) return null;
    const { meta, count, numbers, idLengths, codes } = stored;
    const { typeNames, otherParents, size, idText } = meta;
    // Where each id starts in idText, and the checks decodeEnvelopeIndex makes on every entry.
    const idAt = new Float64Array(count);
    let at = 0;
    let leaf = -1;
    for (let i = 0; i < count; i++) {
      idAt[i] = at;
      if (idLengths[i] >= 0) {
        at += idLengths[i];
        leaf = i;
      }
    }
    if (at !== idText.length) return null;
    for (let i = 0; i < count; i++) {
      const ref = numbers[count * 3 + i];
      if (ref >= 0) {
        if (!(ref < count && Number.isInteger(ref) && idLengths[ref] >= 0)) return null;
      } else if (ref !== PARENT_NULL && ref !== PARENT_NONE && !(ref === PARENT_OTHER && typeof otherParents[i] === 'string')) return null;
      const start = numbers[count + i];
      const end = numbers[count * 2 + i];
      if (!(start >= 0 && end >= start && end <= size && numbers[i] >= 1)) return null;
      const c = codes[i];
      if (c !== 0 && typeNames[c - 1] === undefined) return null;
    }
    const idOf = (i: number) => (idLengths[i] < 0 ? undefined : idText.slice(idAt[i], idAt[i] + idLengths[i]));
    // The walk from the leaf (the last entry with an id), as walkIndices goes: a parent that is no
    // entry's id (stored apart) or none ends it, and so does a position met twice (a cycle).
    const path: number[] = [];
    const seen = new Set<number>();
    for (let i = leaf; i >= 0 && path.length < n; ) {
      seen.add(i);
      path.push(i);
      const ref = numbers[count * 3 + i];
      // An empty parent id is no parent (hasParent), even when some entry has the empty id.
      if (ref < 0 || idLengths[ref] === 0 || seen.has(ref)) break;
      i = ref;
    }
    path.reverse();
    const parentOf = (i: number) => {
      const ref = numbers[count * 3 + i];
      return ref >= 0 ? idOf(ref) : ref === PARENT_NULL ? null : ref === PARENT_NONE ? undefined : otherParents[i];
    };
    // v1 bodies take ids of other entries (a compaction's first kept entry): all ids, then.
    const v1 = meta.header !== null && meta.version < 2;
    const screen: EnvelopeIndex = {
      bytes: new Uint8Array(0),
      read,
      size,
      isSession: meta.isSession,
      header: meta.header,
      titleSlot: meta.titleSlot,
      version: meta.version,
      headRecords: [],
      types: [],
      ids: v1 ? Array.from({ length: count }, (_, i) => idOf(i)) : path.map(idOf),
      parentIds: v1 ? Array.from({ length: count }, (_, i) => parentOf(i)) : path.map(parentOf),
      lines: [],
      starts: v1 ? Array.from(numbers.subarray(count, count * 2)) : path.map((i) => numbers[count + i]),
      ends: v1 ? Array.from(numbers.subarray(count * 2, count * 3)) : path.map((i) => numbers[count * 2 + i]),
      indexById: new Map(),
      leafId: null,
      problems: [],
      lineCount: meta.lineCount,
    };
    const out: StoredScreen = {
      fingerprint: meta.fingerprint,
      size,
      isSession: meta.isSession,
      header: meta.header,
      titleSlot: meta.titleSlot,
      version: meta.version,
      entries: [],
      starts: [],
      ends: [],
    };
    path.forEach((position, k) => {
      const i = v1 ? position : k;
      const body = bodyOf(screen, i);
      if (!body) return;
      out.entries.push(body);
      out.starts.push(screen.starts[i]);
      out.ends.push(screen.ends[i]);
    });
    return out;
  } catch {
    return null;
  }
}
