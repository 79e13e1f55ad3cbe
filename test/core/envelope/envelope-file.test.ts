// The stored envelope index (core/envelope/envelope-file.ts): read back, it says exactly what indexing the
// file says; extended by appended lines, exactly what indexing the longer file says (or it refuses
// and the caller indexes the file); damaged, it is refused, never read wrong.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { extendEnvelopeIndex } from '../../../src/core/envelope/envelope-append.ts';
import { decodeEnvelopeIndex, encodeEnvelopeIndex, fingerprintOf } from '../../../src/core/envelope/envelope-file.ts';
import { bodyOf, type EnvelopeIndex, indexEnvelopes } from '../../../src/core/index.ts';
import { createRng } from '../../gen/prng.ts';
import { bytes, e, fixtureFiles, HEADER, jsonl } from '../helpers.ts';

/** What an index says, without the bytes it reads bodies from. */
function said(index: EnvelopeIndex) {
  const { bytes: _b, read: _r, file: _f, ...rest } = index;
  return { ...rest, bodies: index.ids.map((_, i) => bodyOf(index, i)) };
}

const reader = (file: Uint8Array) => (start: number, end: number) => file.slice(start, end);

/** The index of `file` stored and read back. */
function roundTrip(file: Uint8Array): EnvelopeIndex | null {
  const read = reader(file);
  const stored = encodeEnvelopeIndex(indexEnvelopes(file), fingerprintOf(file.length, read));
  const decoded = decodeEnvelopeIndex(stored, read);
  if (decoded) expect(decoded.fingerprint).toBe(fingerprintOf(file.length, read));
  return decoded?.index ?? null;
}

describe('a stored envelope index read back', () => {
  for (const path of fixtureFiles()) {
    test(`fixture ${path.split('/fixtures/')[1]}`, () => {
      const file = new Uint8Array(readFileSync(path));
      const back = roundTrip(file);
      expect(back).not.toBeNull();
      // Its bodies come from the file, not from bytes kept in memory.
      expect(back!.bytes.length).toBe(0);
      expect(said(back!)).toEqual(said(indexEnvelopes(file)));
    });
  }

  test('is refused when damaged: any changed byte, a cut, another format', () => {
    const file = new Uint8Array(readFileSync(new URL('../../../fixtures/real/pi-mono-large-session.jsonl', import.meta.url)));
    const read = reader(file);
    const stored = encodeEnvelopeIndex(indexEnvelopes(file), fingerprintOf(file.length, read));
    expect(decodeEnvelopeIndex(stored, read)).not.toBeNull();
    // Every region: the magic, the meta, the offsets, the types.
    for (const at of [0, 9, 20, Math.floor(stored.length / 2), stored.length - 30, stored.length - 1]) {
      const bad = stored.slice();
      bad[at] ^= 0x04;
      expect(decodeEnvelopeIndex(bad, read), `byte ${at}`).toBeNull();
    }
    expect(decodeEnvelopeIndex(stored.subarray(0, stored.length - 8), read)).toBeNull();
    expect(decodeEnvelopeIndex(new TextEncoder().encode('{"not":"an index"}'), read)).toBeNull();
    expect(decodeEnvelopeIndex(new Uint8Array(0), read)).toBeNull();
  });

  test('its fingerprint tells other bytes of the same size apart', () => {
    const a = bytes(jsonl(HEADER, e('a1', null), e('a2', 'a1')));
    const b = a.slice();
    b[b.length - 3] = b[b.length - 3] === 49 ? 50 : 49;
    expect(fingerprintOf(a.length, reader(a))).not.toBe(fingerprintOf(b.length, reader(b)));
  });
});

describe('a stored envelope index extended by appended lines', () => {
  /** Indexes the first `cut` bytes, extends with the rest, and compares with what indexing the whole says (`whole`). */
  function extendAt(file: Uint8Array, cut: number, whole = said(indexEnvelopes(file))): EnvelopeIndex | null {
    const read = reader(file);
    const before = decodeEnvelopeIndex(encodeEnvelopeIndex(indexEnvelopes(file.subarray(0, cut)), fingerprintOf(cut, read)), read)!.index;
    const extended = extendEnvelopeIndex(before, file[cut - 1], file.subarray(cut), read);
    if (extended) expect(said(extended)).toEqual(whole);
    return extended;
  }

  /**
   * Where a file is cut (each cut is the end of a line after the header): every line of a small
   * file; in a larger one the first and last lines, the lines before and after the first entry of
   * each type, and a sample drawn with a fixed seed (each cut indexes the whole file again).
   */
  function cutsOf(file: Uint8Array, every = 50, sample = 12): number[] {
    const ends: number[] = [];
    for (let at = file.indexOf(10) + 1; at > 0 && at < file.length; at = file.indexOf(10, at) + 1) ends.push(at);
    // Before the header (omp's title slot comes first) there is no session to extend yet.
    const after = ends.filter((at, i) => i > 2 || indexEnvelopes(file.subarray(0, at)).isSession);
    if (after.length <= every) return after;
    const picked = new Set([...after.slice(0, 3), ...after.slice(-3)]);
    const seen = new Set<string>();
    const text = new TextDecoder();
    after.forEach((at, i) => {
      const type = (JSON.parse(text.decode(file.subarray(at, after[i + 1] ?? file.length))) as { type: string }).type;
      if (seen.has(type)) return;
      seen.add(type);
      picked.add(at);
      if (after[i + 1]) picked.add(after[i + 1]);
    });
    const rng = createRng(20261206);
    for (let i = 0; i < sample; i++) picked.add(rng.pick(after));
    return [...picked].sort((a, b) => a - b);
  }

  test.each(['pi/pi-random-303.jsonl', 'omp/omp-generated-400kb.jsonl', 'omp/omp-shapes.jsonl'])(
    'at the lines of %s (each entry type, its ends, a seeded sample), the same as indexing the longer file',
    (name) => {
      const file = new Uint8Array(readFileSync(new URL(`../../../fixtures/${name}`, import.meta.url)));
      const whole = said(indexEnvelopes(file));
      const cuts = cutsOf(file);
      expect(cuts.length).toBeGreaterThan(16);
      // The fast path takes plain lines: every cut after the header of a v3 file written by pi or omp is extended, not rebuilt.
      for (const at of cuts) expect(extendAt(file, at, whole), `cut at byte ${at}`).not.toBeNull();
    },
  );

  test('a v1 session (ids from line numbers) is always indexed whole again', () => {
    const file = new Uint8Array(readFileSync(new URL('../../../fixtures/real/pi-mono-large-session.jsonl', import.meta.url)));
    const cut = file.indexOf(10, file.indexOf(10) + 1) + 1;
    expect(extendAt(file, cut)).toBeNull();
  });

  test('tree problems follow the longer file: a duplicate id and a missing parent appended', () => {
    const head = jsonl(HEADER, e('a1', null), e('a2', 'a1'));
    const file = bytes(head + jsonl(e('a2', 'a1'), e('a3', 'nope'), e('a4', 'a3')));
    const cut = bytes(head).length;
    const extended = extendAt(file, cut);
    expect(extended).not.toBeNull();
    expect(extended!.problems.map((p) => p.code)).toEqual(expect.arrayContaining(['duplicate-id', 'missing-parent']));
  });

  test('refuses what the full scan reads another way (the caller indexes the whole file then)', () => {
    const head = jsonl(HEADER, e('a1', null));
    const cut = bytes(head).length;
    const refused = (tail: string) => {
      const file = bytes(head.slice(0, head.indexOf('\n') + 1) + head.slice(head.indexOf('\n') + 1) + tail);
      const read = reader(file);
      const before = indexEnvelopes(file.subarray(0, cut));
      return extendEnvelopeIndex({ ...before, read }, file[cut - 1], file.subarray(cut), read) === null;
    };
    expect(refused('{"type":"message","id":"a2","parentId":"a1"')).toBe(true); // torn: no "\n"
    expect(refused('not json\n')).toBe(true);
    expect(refused(`${JSON.stringify({ ...JSON.parse(jsonl(HEADER).trim()), id: 'other' })}\n`)).toBe(true); // a second header
    expect(refused('{"type":"message","id":"a\\u0032","parentId":"a1"}\n')).toBe(true); // an escaped id: JSON.parse decides
    expect(refused('\n')).toBe(true);
    expect(refused('{"type":"message","id":"a2","parentId":"a1"}\n')).toBe(false);
    // Not after a line without its "\n".
    const torn = bytes(head.slice(0, -1));
    expect(extendEnvelopeIndex(indexEnvelopes(torn), torn[torn.length - 1], bytes('{"type":"x","id":"b"}\n'), reader(torn))).toBeNull();
  });
});
