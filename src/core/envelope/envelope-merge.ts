// A stored envelope index and the blocks appended after it (envelope-records.ts) read as one: the
// very parts `encodeEnvelopeIndex` would lay out for the whole session, so every reader of stored
// indexes (decode, the reopen's first screen) reads an appended index as it reads a fresh one. A
// parent is stored as the position of the LAST entry with its id: an appended entry that repeats an
// earlier id (or is the parent an earlier entry named without finding it) moves those references.
import { PARENT_NONE, PARENT_NULL, PARENT_OTHER, type StoredParts } from './envelope-layout.ts';
import { type RecordBlock, withoutAppended } from './envelope-records.ts';

/** `base` (the parts before the blocks) with the entries of `blocks`; null when the blocks do not follow it. */
export function mergeRecords(base: StoredParts, blocks: RecordBlock[]): StoredParts | null {
  const plain = withoutAppended(base, blocks);
  if (plain !== undefined) return plain;
  const last = blocks[blocks.length - 1].state;
  const count = last.count;
  const n0 = base.count;

  const types: (string | undefined)[] = [];
  const ids: (string | undefined)[] = [];
  const parentIds: (string | null | undefined)[] = [];
  const lines: number[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  for (const { entries } of blocks) {
    types.push(...entries.types);
    ids.push(...entries.ids);
    parentIds.push(...entries.parentIds);
    lines.push(...entries.lines);
    starts.push(...entries.starts);
    ends.push(...entries.ends);
  }
  const { meta } = base;
  const typeNames = meta.typeNames.slice();
  const codeOf = new Map(typeNames.map((t, i) => [t, i + 1]));
  const codes = new Uint16Array(count);
  codes.set(base.codes);
  const idLengths = new Int32Array(count);
  idLengths.set(base.idLengths);
  for (let j = 0; j < types.length; j++) {
    const type = types[j];
    if (type !== undefined) {
      let code = codeOf.get(type);
      if (code === undefined) {
        if (typeNames.length >= 0xfffe) return null;
        typeNames.push(type);
        codeOf.set(type, (code = typeNames.length));
      }
      codes[n0 + j] = code;
    }
    idLengths[n0 + j] = ids[j]?.length ?? -1;
  }

  // The base's ids by position (where each starts in its idText), and the last base entry with an id.
  const baseText = meta.idText;
  let idAt: Float64Array | null = null;
  const found = new Map<string, number>();
  const inBase = (id: string): number => {
    const known = found.get(id);
    if (known !== undefined) return known;
    let at = -1;
    if (baseText.includes(id)) {
      if (!idAt) {
        idAt = new Float64Array(n0);
        for (let i = 0, x = 0; i < n0; i++) {
          idAt[i] = x;
          if (base.idLengths[i] > 0) x += base.idLengths[i];
        }
      }
      for (let i = n0 - 1; i >= 0; i--) {
        if (base.idLengths[i] === id.length && baseText.startsWith(id, idAt[i])) {
          at = i;
          break;
        }
      }
    }
    found.set(id, at);
    return at;
  };
  // The last appended entry with each id (later than any base entry with it).
  const lastNew = new Map<string, number>();
  ids.forEach((id, j) => {
    if (id !== undefined) lastNew.set(id, n0 + j);
  });

  const numbers = new Float64Array(count * 4);
  for (let col = 0; col < 4; col++) numbers.set(base.numbers.subarray(col * n0, (col + 1) * n0), col * count);
  numbers.set(lines, n0);
  numbers.set(starts, count + n0);
  numbers.set(ends, count * 2 + n0);
  const otherParents = { ...meta.otherParents };
  // Base references to an id an appended entry takes over now point to that entry.
  const moved = new Map<number, number>();
  for (const [id, at] of lastNew) {
    const before = inBase(id);
    if (before >= 0) moved.set(before, at);
  }
  for (const [i, parent] of Object.entries(otherParents)) {
    const at = lastNew.get(parent);
    if (at === undefined) continue;
    numbers[count * 3 + Number(i)] = at;
    delete otherParents[i];
  }
  if (moved.size) {
    for (let i = 0; i < n0; i++) {
      const to = moved.get(numbers[count * 3 + i]);
      if (to !== undefined) numbers[count * 3 + i] = to;
    }
  }
  parentIds.forEach((parent, j) => {
    const i = n0 + j;
    if (parent === null) numbers[count * 3 + i] = PARENT_NULL;
    else if (parent === undefined) numbers[count * 3 + i] = PARENT_NONE;
    else {
      const at = lastNew.get(parent) ?? inBase(parent);
      if (at >= 0) numbers[count * 3 + i] = at;
      else {
        numbers[count * 3 + i] = PARENT_OTHER;
        otherParents[i] = parent;
      }
    }
  });
  return {
    meta: {
      ...meta,
      size: last.size,
      fingerprint: last.fingerprint,
      count,
      lineCount: last.lineCount,
      typeNames,
      idText: baseText + ids.map((id) => id ?? '').join(''),
      otherParents,
    },
    count,
    numbers,
    idLengths,
    codes,
  };
}
