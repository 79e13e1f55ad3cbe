// A reopen's first screen straight from the stored index (core/envelope/envelope-reopen.ts): the same
// entries and ranges as decoding the whole stored index and walking its branch, on every fixture
// and every odd case (duplicate ids, orphans, cycles, empty ids, v1), and refused where that
// decode refuses (a damaged file, another format).
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { decodeEnvelopeIndex, encodeEnvelopeIndex, fingerprintOf } from '../../../src/core/envelope/envelope-file.ts';
import { storedScreen } from '../../../src/core/envelope/envelope-reopen.ts';
import { bodiesOf, branchOfIndex, indexEnvelopes } from '../../../src/core/index.ts';
import { CASES } from './envelope-cases.ts';
import { bytes, e, fixtureFiles, HEADER, jsonl } from '../helpers.ts';

const reader = (file: Uint8Array) => (start: number, end: number) => file.slice(start, end);

/** Asserts storedScreen agrees with the whole decode for a few screen sizes. */
function agrees(file: Uint8Array) {
  const read = reader(file);
  const stored = encodeEnvelopeIndex(indexEnvelopes(file), fingerprintOf(file.length, read));
  const decoded = decodeEnvelopeIndex(stored, read);
  expect(decoded).not.toBeNull();
  const index = decoded!.index;
  const branch = branchOfIndex(index);
  for (const n of [1, 3, 50, 1e9]) {
    const screen = storedScreen(stored, read, n);
    const path = branch.slice(-n);
    expect(screen).not.toBeNull();
    expect(screen!.entries).toEqual(bodiesOf(index, path));
    expect(screen!.starts).toEqual(path.map((i) => index.starts[i]));
    expect(screen!.ends).toEqual(path.map((i) => index.ends[i]));
    expect(screen!.fingerprint).toBe(decoded!.fingerprint);
    expect(screen!.header).toEqual(index.header);
    expect(screen!.version).toBe(index.version);
  }
}

describe('storedScreen agrees with the whole stored index', () => {
  for (const path of fixtureFiles()) test(`fixture ${path.split('/fixtures/')[1]}`, () => agrees(new Uint8Array(readFileSync(path))));
  for (const [name, input] of Object.entries(CASES)) test(`case: ${name}`, () => agrees(typeof input === 'string' ? bytes(input) : input));

  test('duplicate ids: the walk goes to the later copy; an empty parent id is no parent', () => {
    const twice = bytes(jsonl(HEADER, e('x', 'b'), e('b', null, 'custom', { n: 1 }), e('b', null, 'custom', { n: 2 }), e('leaf', 'x')));
    agrees(twice);
    const read = reader(twice);
    const screen = storedScreen(encodeEnvelopeIndex(indexEnvelopes(twice), fingerprintOf(twice.length, read)), read, 50);
    expect(screen?.entries.map((en) => en.n ?? en.id)).toEqual([2, 'x', 'leaf']);
    agrees(bytes(jsonl(HEADER, e('', null), e('a', ''), e('b', 'a'))));
    agrees(bytes(jsonl(HEADER, e('a', 'c'), e('b', 'a'), e('c', 'b'), e('d', 'gone'), e('f', 'd'))));
  });

  test('is refused where decodeEnvelopeIndex refuses', () => {
    const file = new Uint8Array(readFileSync(new URL('../../../fixtures/real/pi-mono-large-session.jsonl', import.meta.url)));
    const read = reader(file);
    const stored = encodeEnvelopeIndex(indexEnvelopes(file), fingerprintOf(file.length, read));
    for (const at of [0, 9, 20, Math.floor(stored.length / 2), stored.length - 30, stored.length - 1]) {
      const bad = stored.slice();
      bad[at] ^= 0x04;
      expect(storedScreen(bad, read, 50), `byte ${at}`).toBeNull();
    }
    expect(storedScreen(stored.subarray(0, stored.length - 8), read, 50)).toBeNull();
    expect(storedScreen(bytes('{"not":"an index"}'), read, 50)).toBeNull();
    expect(storedScreen(new Uint8Array(0), read, 50)).toBeNull();
  });
});
