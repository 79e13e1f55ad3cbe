// A session parsed from chunks (src/core/read/record-stream.ts, `sessionParser` / `parseChunks`) must be
// the session `parse` reads from the whole file, wherever the chunks are cut: inside a line, inside
// a UTF-8 character, beside a "\r", at a BOM, across a line longer than a chunk, at the torn last line.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parse, parseChunks } from '../../../src/core/index.ts';
import { bytes, e, fixtureFiles, HEADER, jsonl, m } from '../helpers.ts';

/** The bytes cut at the given offsets (sorted, deduplicated, inside the file). */
function cut(all: Uint8Array, at: number[]): Uint8Array[] {
  const points = [...new Set(at.filter((p) => p > 0 && p < all.length))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let from = 0;
  for (const p of [...points, all.length]) {
    out.push(all.slice(from, p));
    from = p;
  }
  return out;
}

/** Chunks of `size` bytes, each from one buffer the reader reuses (as a file read into one buffer would be). */
function* reused(all: Uint8Array, size: number): Generator<Uint8Array> {
  const buffer = new Uint8Array(size);
  for (let at = 0; at < all.length; at += size) {
    const n = Math.min(size, all.length - at);
    buffer.set(all.subarray(at, at + n));
    yield buffer.subarray(0, n);
    buffer.fill(0x7b);
  }
}

const tricky = [
  ['non-ASCII, CRLF and a BOM', `\ufeff${jsonl(HEADER, m('a', null, { role: 'user', content: 'héllo 漢字 🎉' }))}\r\n${jsonl(e('b', 'a'))}`],
  ['a BOM starting a line in the middle (invalid JSON there)', `${jsonl(HEADER, e('a', null))}\ufeff${jsonl(e('b', 'a'))}`],
  ['a torn last line holding non-ASCII', `${jsonl(HEADER, e('a', null))}{"type":"custom","id":"b","text":"é`],
  ['blank lines and no final newline', `${jsonl(HEADER)}\n\n  \n${JSON.stringify(e('a', null))}`],
  ['bad lines among good ones', `${jsonl(HEADER, e('a', null))}not json\n[1]\n${jsonl(e('b', 'a'))}`],
] as const;

describe('parse from chunks', () => {
  test.each(tricky)('%s: cut at every byte, the same session as parse', (_name, text) => {
    const all = bytes(text);
    const whole = parse(all);
    for (let p = 1; p < all.length; p++) expect(parseChunks(cut(all, [p]))).toEqual(whole);
    expect(parseChunks(cut(all, [...all.keys()]))).toEqual(whole);
  });

  test('invalid UTF-8 and a character cut between chunks read as in the whole file', () => {
    const all = new Uint8Array([
      ...bytes(`${jsonl(HEADER)}{"type":"custom","id":"a","x":"`),
      0xff,
      0xe6,
      0xbc,
      ...bytes('"}\n'),
      ...bytes(jsonl(e('b', null))),
    ]);
    const whole = parse(all);
    expect(whole.problems.map((p) => p.code)).toContain('invalid-utf8');
    for (let p = 1; p < all.length; p++) expect(parseChunks(cut(all, [p]))).toEqual(whole);
  });

  test('random cuts of every committed fixture read as parse reads the whole file', () => {
    const files = fixtureFiles().map((f) => readFileSync(f));
    expect(files.length).toBeGreaterThan(20);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: files.length - 1 }), fc.array(fc.nat(), { maxLength: 12 }), (k, at) => {
        const all = new Uint8Array(files[k]);
        const points = at.map((p) => (all.length ? p % all.length : 0));
        expect(parseChunks(cut(all, points))).toEqual(parse(all));
      }),
      { numRuns: 300 },
    );
  });

  test('a reader that reuses its buffer after each push gets the same session (nothing kept uncopied)', () => {
    for (const file of fixtureFiles().filter((f) => /real|omp/.test(f))) {
      const all = new Uint8Array(readFileSync(file));
      expect(parseChunks(reused(all, 4096)), file).toEqual(parse(all));
    }
  });
});
