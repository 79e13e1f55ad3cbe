// A stored envelope index followed by the blocks appends add (core/envelope/envelope-records.ts) reads
// back as the index of the whole session built fresh: the same parts laid out (so every reader agrees),
// the same decoded index, the same reopen screen. Blocks dropped, swapped or torn are refused, not read.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { decodeEnvelopeIndex, encodeEnvelopeIndex, fingerprintOf, storedParts } from '../../../src/core/envelope/envelope-file.ts';
import { compactEnvelopeFile } from '../../../src/core/envelope/envelope-compact.ts';
import { decodeRecordBlock, TRAILER_BYTES, trailerLength } from '../../../src/core/envelope/envelope-records.ts';
import { storedScreen } from '../../../src/core/envelope/envelope-reopen.ts';
import { createEnvelopeIndexer } from '../../../src/core/envelope/envelope-stream.ts';
import { bodyOf, type EnvelopeIndex, indexEnvelopes } from '../../../src/core/index.ts';
import { concatBytes } from '../../../src/core/read/record-stream.ts';
import { bytes, e, fixtureFiles, HEADER, jsonl } from '../helpers.ts';

const reader = (file: Uint8Array) => (start: number, end: number) => file.slice(start, end);

function said(index: EnvelopeIndex) {
  const { bytes: _b, read: _r, file: _f, ...rest } = index;
  return { ...rest, bodies: index.ids.map((_, i) => bodyOf(index, i)) };
}

const concat = (...parts: Uint8Array[]) => concatBytes(parts);

/** The block an append of file[from, to) adds after `stored` (the index of file[0, from)); null when the indexer gives up. */
function blockFor(stored: Uint8Array, file: Uint8Array, from: number, to: number): Uint8Array | null {
  const length = trailerLength(stored.subarray(stored.length - TRAILER_BYTES))!;
  const state = decodeRecordBlock(stored.subarray(stored.length - TRAILER_BYTES - length))!.state;
  expect(state.size).toBe(from);
  const indexer = createEnvelopeIndexer({ state, head: file.slice(0, Math.min(from, 64)), last: file.slice(Math.max(0, from - 64), from) });
  indexer.push(file.slice(from, to));
  return indexer.finish();
}

/** Where lines of `file` end (offsets just past each "\n"). */
function lineEnds(file: Uint8Array): number[] {
  const ends: number[] = [];
  for (let at = file.indexOf(10); at >= 0; at = file.indexOf(10, at + 1)) ends.push(at + 1);
  return ends;
}

/**
 * The stored index of `file` cut before its last `appends` groups of lines (one to three lines each),
 * those lines added one append at a time; null when an append's lines are ones the indexer leaves
 * to the full scan. Also the blocks, to tamper with.
 */
function appended(file: Uint8Array, appends: number): { stored: Uint8Array; blocks: Uint8Array[]; size: number } | null {
  const ends = lineEnds(file);
  const cuts: number[] = [];
  for (let k = 0, at = ends.length - 1; k < appends && at > 1; k++, at -= 1 + (k % 3)) cuts.unshift(ends[at]);
  const first = ends[ends.indexOf(cuts[0]) - 1];
  if (first === undefined) return null;
  let stored = encodeEnvelopeIndex(indexEnvelopes(file.subarray(0, first)), fingerprintOf(first, reader(file)));
  const blocks: Uint8Array[] = [];
  let from = first;
  for (const to of cuts) {
    const block = blockFor(stored, file, from, to);
    if (!block) return null;
    blocks.push(block);
    stored = concat(stored, block);
    from = to;
  }
  // Up to the last "\n": a last line without one is no append's.
  return { stored, blocks, size: from };
}

/** The index built fresh for the whole file, stored. */
const fresh = (file: Uint8Array) => encodeEnvelopeIndex(indexEnvelopes(file), fingerprintOf(file.length, reader(file)));

function expectSameAsFresh(stored: Uint8Array, file: Uint8Array) {
  const whole = fresh(file);
  // The same parts as the fresh index lays out: every reader of stored parts reads both alike.
  expect(storedParts(stored)).toEqual(storedParts(whole));
  const decoded = decodeEnvelopeIndex(stored, reader(file));
  expect(decoded?.fingerprint).toBe(fingerprintOf(file.length, reader(file)));
  expect(said(decoded!.index)).toEqual(said(indexEnvelopes(file)));
  expect(storedScreen(stored, reader(file), 50)).toEqual(storedScreen(whole, reader(file), 50));
  // Folded into one index, it is the fresh one byte for byte.
  expect(compactEnvelopeFile(stored)).toEqual(whole);
}

describe('a stored envelope index with the blocks of appends', () => {
  let exercised = 0;
  for (const path of fixtureFiles()) {
    const name = path.split('/fixtures/')[1];
    test(`fixture ${name}: after its last lines are appended in blocks, reads as the index built for the whole file`, () => {
      const file = new Uint8Array(readFileSync(path));
      const full = indexEnvelopes(file);
      const result = appended(file, 6);
      // Appends are indexed alone in v2+ sessions whose last lines are plain entry lines (all of pi's).
      if (name.startsWith('pi/')) expect(result).not.toBeNull();
      if (!result) {
        expect(full.isSession && full.version >= 2 && lineEnds(file).length > 8 && file[file.length - 1] === 10 && name.startsWith('pi/')).toBe(false);
        return;
      }
      exercised++;
      expectSameAsFresh(result.stored, file.subarray(0, result.size));
    });
  }
  test('fixtures exercised', () => expect(exercised).toBeGreaterThan(5));

  // A generated session: repeated ids (the later wins), a parent named before its entry exists, an entry without id, a new type.
  const generated = bytes(
    jsonl(
      HEADER,
      e('a1', null, 'message'),
      e('a2', 'a1', 'message'),
      e('a3', 'later', 'message'),
      e('a4', 'a2', 'message'),
      { type: 'custom', parentId: 'a4' },
      e('a2', 'a4', 'message'),
      e('later', 'a2', 'label'),
      e('a5', 'a3', 'message'),
      e('a1', 'a5', 'thinking_level_change'),
      e('', 'a1', 'message'),
      e('a6', '', 'message'),
    ),
  );

  test('a generated session with repeated ids and late parents: every cut, every append, the index built fresh', () => {
    const ends = lineEnds(generated);
    let checked = 0;
    for (let cut = 1; cut < ends.length - 1; cut++) {
      let stored = fresh(generated.subarray(0, ends[cut]));
      for (let k = cut + 1; k < ends.length; k++) {
        const block = blockFor(stored, generated, ends[k - 1], ends[k]);
        expect(block).not.toBeNull();
        stored = concat(stored, block!);
        expectSameAsFresh(stored, generated.subarray(0, ends[k]));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(40);
  });

  test('a block dropped, swapped, repeated or torn makes the stored index refused (read again from the session), never misread', () => {
    const file = new Uint8Array(readFileSync(new URL('../../../fixtures/pi/pi-random-303.jsonl', import.meta.url)));
    const result = appended(file, 4)!;
    const base = result.stored.subarray(0, result.stored.length - result.blocks.reduce((n, b) => n + b.length, 0));
    const [b1, b2, b3, b4] = result.blocks;
    const refused = (stored: Uint8Array) => {
      expect(storedParts(stored)).toBeNull();
      expect(decodeEnvelopeIndex(stored, reader(file))).toBeNull();
      expect(storedScreen(stored, reader(file), 10)).toBeNull();
    };
    expect(decodeEnvelopeIndex(concat(base, b1, b2, b3, b4), reader(file))).not.toBeNull();
    refused(concat(base, b1, b3, b4)); // dropped
    refused(concat(base, b1, b3, b2, b4)); // misordered
    refused(concat(base, b1, b2, b2, b3, b4)); // twice
    for (const cut of [1, TRAILER_BYTES - 1, TRAILER_BYTES + 1, b4.length - 1]) refused(concat(base, b1, b2, b3, b4.subarray(0, b4.length - cut))); // torn
    const flipped = concat(base, b1, b2, b3, b4);
    flipped[flipped.length - b4.length + 5] ^= 1;
    refused(flipped);
    refused(base.subarray(0, base.length - 1)); // the index's own first block torn
  });

  test('an index stored by the format before blocks (RHOENV3) is refused, so the reader indexes the file again', () => {
    const file = new Uint8Array(readFileSync(new URL('../../../fixtures/pi/pi-random-303.jsonl', import.meta.url)));
    const whole = fresh(file);
    const length = trailerLength(whole.subarray(whole.length - TRAILER_BYTES))!;
    const v3 = whole.slice(0, whole.length - TRAILER_BYTES - length);
    v3.set(new TextEncoder().encode('RHOENV3\n'), 0);
    expect(decodeEnvelopeIndex(v3, reader(file))).toBeNull();
    expect(storedScreen(v3, reader(file), 10)).toBeNull();
  });
});
