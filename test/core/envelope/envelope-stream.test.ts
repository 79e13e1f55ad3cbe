// The envelope index built from a session's bytes as they stream past (core/envelope/envelope-stream.ts):
// whatever the chunks, it says exactly what indexing the whole file says, or it gives up (null)
// and the reader indexes the file; started from a stored index, it gives the block an append adds to it.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { decodeEnvelopeIndex, encodeEnvelopeIndex, fingerprintOf } from '../../../src/core/envelope/envelope-file.ts';
import { decodeRecordBlock, TRAILER_BYTES, trailerLength } from '../../../src/core/envelope/envelope-records.ts';
import { createEnvelopeIndexer, type IndexedPrefix } from '../../../src/core/envelope/envelope-stream.ts';
import { bodyOf, createDigester, type EnvelopeIndex, indexEnvelopes } from '../../../src/core/index.ts';
import { concatBytes } from '../../../src/core/read/record-stream.ts';
import { bytes, e, fixtureFiles, HEADER, jsonl } from '../helpers.ts';

function said(index: EnvelopeIndex) {
  const { bytes: _b, read: _r, file: _f, ...rest } = index;
  return { ...rest, bodies: index.ids.map((_, i) => bodyOf(index, i)) };
}

const reader = (file: Uint8Array) => (start: number, end: number) => file.slice(start, end);

/** `file` cut into pieces of `size` bytes (the last shorter), fed in order; the buffer is reused, as a stream's may be. */
function feed(indexer: ReturnType<typeof createEnvelopeIndexer>, file: Uint8Array, size: number) {
  const buffer = new Uint8Array(size);
  for (let at = 0; at < file.length; at += size) {
    const piece = buffer.subarray(0, Math.min(size, file.length - at));
    piece.set(file.subarray(at, at + piece.length));
    indexer.push(piece);
    buffer.fill(0);
  }
}

/** A stored index, and the state it ends with: where an append starts. */
interface Prefix {
  stored: Uint8Array;
  from: IndexedPrefix;
}

/** The streamed index of `file`, read back as the reader reads it (after the stored index of a prefix, when given); checked against the full scan. null when the indexer gave up. */
function streamed(file: Uint8Array, size: number, prefix?: Prefix): EnvelopeIndex | null {
  const indexer = createEnvelopeIndexer(prefix?.from);
  feed(indexer, prefix ? file.subarray(prefix.from.state.size) : file, size);
  const out = indexer.finish();
  if (!out) return null;
  const stored = prefix ? concatBytes([prefix.stored, out]) : out;
  const decoded = decodeEnvelopeIndex(stored, reader(file));
  expect(decoded).not.toBeNull();
  expect(decoded!.fingerprint).toBe(fingerprintOf(file.length, reader(file)));
  expect(said(decoded!.index)).toEqual(said(indexEnvelopes(file)));
  return decoded!.index;
}

const SIZES = [1, 7, 64, 1000, 65536, 1 << 22];
/** Byte-by-byte feeding costs a call per byte: files over this size start at 64-byte pieces (a line still crosses many). */
const TINY_PIECES_UP_TO = 256 * 1024;
const sizesFor = (file: Uint8Array) => (file.length <= TINY_PIECES_UP_TO ? SIZES : SIZES.filter((size) => size >= 64));

describe('an envelope index built as the bytes stream past', () => {
  for (const path of fixtureFiles()) {
    const name = path.split('/fixtures/')[1];
    test(`fixture ${name}: the full scan's answer at every chunk size, or none`, () => {
      const file = new Uint8Array(readFileSync(path));
      const sizes = sizesFor(file);
      const results = sizes.map((size) => streamed(file, size) !== null);
      const full = indexEnvelopes(file);
      // In one chunk it is the full scan itself: it gives up only where extending could not follow (v1, no "\n" at the end).
      expect(results.at(-1)).toBe(full.isSession && full.version >= 2 && file[file.length - 1] === 10);
      // Smaller chunks give up sooner (lines past the first chunk must be plain), but not on sessions pi writes.
      if (name.startsWith('pi/') && results.at(-1)) expect(results).toEqual(sizes.map(() => true));
    });
  }

  test('gives up where the full scan reads a line another way, or on a v1 session, or without a header first', () => {
    const head = jsonl(HEADER, e('a1', null));
    const gives = (text: string) => streamed(bytes(text), 5) === null;
    expect(gives(head)).toBe(false);
    expect(gives(`${head}{"type":"message","id":"a2","parentId":"a1"`)).toBe(true); // torn last line
    expect(gives(`${head}not json\n`)).toBe(true);
    expect(gives(`${head}{"type":"message","id":"a\\u0032","parentId":"a1"}\n`)).toBe(true);
    expect(gives(jsonl(e('a1', null)))).toBe(true); // no header
    expect(gives('')).toBe(true);
    const v1 = new Uint8Array(readFileSync(new URL('../../../fixtures/real/pi-mono-large-session.jsonl', import.meta.url)));
    expect(streamed(v1, 4096)).toBeNull();
  });

  test('tree problems of the whole file: a duplicate id and a missing parent in later chunks', () => {
    const file = bytes(jsonl(HEADER, e('a1', null), e('a2', 'a1'), e('a2', 'a1'), e('a3', 'nope')));
    const index = streamed(file, 3);
    expect(index!.problems.map((p) => p.code)).toEqual(expect.arrayContaining(['duplicate-id', 'missing-parent']));
  });
});

describe('a stored envelope index extended by an append as it streams past', () => {
  /** The stored index of the first `cut` bytes, and the state its last block says, as the worker hands it to the indexer. */
  function prefix(file: Uint8Array, cut: number): Prefix {
    const stored = encodeEnvelopeIndex(indexEnvelopes(file.subarray(0, cut)), fingerprintOf(cut, reader(file)));
    const trailer = stored.subarray(stored.length - TRAILER_BYTES);
    const state = decodeRecordBlock(stored.subarray(stored.length - TRAILER_BYTES - trailerLength(trailer)!))!.state;
    return { stored, from: { state, head: file.slice(0, Math.min(cut, 64)), last: file.slice(Math.max(0, cut - 64), cut) } };
  }

  test.each(['pi/pi-random-303.jsonl', 'omp/omp-generated-400kb.jsonl'])('at lines of %s, the same as indexing the longer file', (name) => {
    const file = new Uint8Array(readFileSync(new URL(`../../../fixtures/${name}`, import.meta.url)));
    let cuts = 0;
    let n = 0;
    for (let at = file.indexOf(10) + 1; at > 0 && at < file.length; at = file.indexOf(10, at) + 1) {
      if (n++ % 7 !== 0 || !indexEnvelopes(file.subarray(0, at)).isSession) continue;
      cuts++;
      for (const size of [13, 4096]) expect(streamed(file, size, prefix(file, at)), `cut at ${at}, chunks of ${size}`).not.toBeNull();
    }
    expect(cuts).toBeGreaterThan(3);
  });

  test('not after a last line without its "\\n" (the full scan joins the two)', () => {
    const head = bytes(jsonl(HEADER, e('a1', null)).slice(0, -1));
    const file = bytes(`${jsonl(HEADER, e('a1', null)).slice(0, -1)}{"type":"x","id":"b"}\n`);
    expect(streamed(file, 8, prefix(file, head.length))).toBeNull();
  });
});

describe('an envelope index built from the records a digest parses as the bytes stream past', () => {
  /** The index of `file` from the digest's records (chunks of `size`, each pushed to the indexer first, as an import taps them), checked against the full scan; null when it gave up. */
  function fromRecords(file: Uint8Array, size: number): EnvelopeIndex | null {
    const indexer = createEnvelopeIndexer(undefined, { records: true });
    const digester = createDigester({ onRecordAt: indexer.record });
    const buffer = new Uint8Array(size);
    for (let at = 0; at < file.length; at += size) {
      const piece = buffer.subarray(0, Math.min(size, file.length - at));
      piece.set(file.subarray(at, at + piece.length));
      indexer.push(piece);
      digester.push(piece);
      buffer.fill(0);
    }
    digester.finish();
    const stored = indexer.finish();
    if (!stored) return null;
    const decoded = decodeEnvelopeIndex(stored, reader(file));
    expect(decoded!.fingerprint).toBe(fingerprintOf(file.length, reader(file)));
    expect(said(decoded!.index)).toEqual(said(indexEnvelopes(file)));
    return decoded!.index;
  }

  for (const path of fixtureFiles()) {
    const name = path.split('/fixtures/')[1];
    test(`fixture ${name}: the full scan's answer at every chunk size, or none`, () => {
      const file = new Uint8Array(readFileSync(path));
      const sizes = sizesFor(file);
      const results = sizes.map((size) => fromRecords(file, size) !== null);
      // Sessions pi writes are indexed at every chunk size.
      if (name.startsWith('pi/') && streamed(file, 1 << 22)) expect(results).toEqual(sizes.map(() => true));
    });
  }

  test('a title slot before the header: both head lines read as the full scan reads them, the rest from records', () => {
    const file = new Uint8Array(readFileSync(new URL('../../../fixtures/omp/omp-generated-400kb.jsonl', import.meta.url)));
    for (const size of [64, 4096, 1 << 22]) expect(fromRecords(file, size), `chunks of ${size}`).not.toBeNull();
  });

  test('a line of any length past the first chunk, escapes and all, without scanning it', () => {
    const long = `é "q" \\ ${'x'.repeat(300_000)}`;
    const file = bytes(jsonl(HEADER, e('a1', null), { ...e('a2', 'a1'), message: { role: 'user', content: long, timestamp: 1 } }, e('a3', 'a2')));
    expect(fromRecords(file, 4096)!.ids).toEqual(['a1', 'a2', 'a3']);
  });

  test('gives up where a line is no record, or the full scan reads it another way, or the last line has no "\\n"', () => {
    const head = jsonl(HEADER, e('a1', null));
    const gives = (text: string) => fromRecords(bytes(text), 5) === null;
    expect(gives(head)).toBe(false);
    expect(gives(`${head}{"type":"message","id":"a2","parentId":"a1"`)).toBe(true);
    expect(gives(`${head}not json\n`)).toBe(true);
    expect(gives(`${head}\n`)).toBe(true);
    expect(gives(`${head}{"type":"message","id":2,"parentId":"a1"}\n`)).toBe(true);
    expect(gives(`${head}${JSON.stringify(HEADER)}\n`)).toBe(true);
    expect(gives(jsonl(e('a1', null)))).toBe(true);
    // Escapes the scanner leaves to JSON.parse: the records have them parsed already.
    expect(gives(`${head}{"type":"message","id":"a\\u0032","parentId":"a1"}\n`)).toBe(false);
  });
});
