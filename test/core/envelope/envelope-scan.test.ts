// The envelope scanner over bytes (what indexEnvelopes uses) against JSON.parse: whatever it
// decides, JSON.parse agrees with; a plain object line (no backslash, string envelope values) it
// must decide, at every alignment; bad UTF-8 and raw control bytes are left to the decoding path.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { scanEnvelope, scanEnvelopeBytes } from '../../../src/core/envelope/envelope-scan.ts';

const encoder = new TextEncoder();
const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The byte scanner on a line placed between other bytes, as it lies in a file (the bounds matter),
 * at each of the four alignments (it reads four bytes at a time where it can): all must agree.
 */
function scanBytes(line: Uint8Array): ReturnType<typeof scanEnvelopeBytes> {
  const results = [0, 1, 2, 3].map((pad) => {
    const before = encoder.encode(`${' '.repeat(pad)}{"type":"custom","id":"before"}\n`);
    const after = encoder.encode('\n"} \\u0000 {"type":"after","id":"z"}\n');
    const file = new Uint8Array(before.length + line.length + after.length);
    file.set(before);
    file.set(line, before.length);
    file.set(after, before.length + line.length);
    return scanEnvelopeBytes(file, before.length, before.length + line.length);
  });
  for (const r of results) expect(r).toEqual(results[0]);
  return results[0];
}

/** What JSON.parse says the envelope of a text line is, or null when it is not an object. */
function parsedEnvelope(text: string) {
  try {
    const v = JSON.parse(text);
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return null;
    return v as Record<string, unknown>;
  } catch {
    return null;
  }
}

/** Checks one line of bytes against JSON.parse. */
function check(line: Uint8Array) {
  const got = scanBytes(line);
  let text: string | null = null;
  try {
    text = fatal.decode(line);
  } catch {
    text = null;
  }
  if (got !== null) {
    // Decided: the bytes are valid UTF-8 and JSON.parse reads the same envelope.
    expect(text).not.toBeNull();
    const parsed = parsedEnvelope(text!);
    expect(parsed).not.toBeNull();
    expect(got).toEqual({ type: parsed!.type, id: parsed!.id, parentId: parsed!.parentId });
  }
  // The text entry point reads the same (it scans the text's bytes).
  if (text !== null) expect(scanEnvelope(text)).toEqual(got);
  // Not overcautious: a valid object line without escapes or raw control bytes whose envelope
  // values are strings (or a null parentId) is decided. (A raw tab or CR inside a line is JSON
  // whitespace, but the scan stops at any control byte and leaves that line to JSON.parse.)
  const parsed = text === null || line.includes(92) || line.some((c) => c < 0x20) ? null : parsedEnvelope(text);
  const plainValue = (v: unknown, nullable = false) => v === undefined || typeof v === 'string' || (nullable && v === null);
  if (parsed && plainValue(parsed.type) && plainValue(parsed.id) && plainValue(parsed.parentId, true)) expect(got).not.toBeNull();
}

const LINES = [
  '{"type":"message","id":"a1b2c3d4","parentId":null,"timestamp":"t","message":{"role":"user","content":"hé 🌍"}}',
  '{"data":{"id":"no","type":"x"},"type":"custom","parentId":null,"id":"a"}',
  '{"text":"\\"id\\":\\"no\\"","type":"t"}',
  '{}',
  ' { "type" : "t" , "id" : "é" , "parentId" : "ü🌍" } ',
  JSON.stringify({ x: [{ a: [1, { b: null }], c: -1.5e3, d: [], e: {} }], y: 'é " \\ \n /', t: true, f: false, type: 't', id: 'i', parentId: 'p' }),
  '{"type":"custom","id":"a","parentId":null,"id":"b"}',
  '{"type":"x","id":"' + 'long'.repeat(40) + '"}',
  '[1]',
  'null',
  '{"type":5}',
  '{"id":"a\\u0062"}',
  '{"\\u0069d":"a"}',
  '{"type":"x"',
  '{"type":"x"} x',
  '{"a":nope}',
  '{"a" 1}',
  '{"a":1,}x',
  '"s"',
  '{"a":[1,]}',
  '{"a":01}',
  '{"a":"\\x"}',
  '{"a":"\t"}',
  '{"a":{"b":1,}}',
  '{"a":[}',
  '{"a":tru}',
  '{"a":-}',
  '{"a":1.}',
  '{"a":1e}',
  '{"a":"\\u12"}',
  '{"a":"\\',
  '{"a":"x\\"}',
  '{"type":"t","x":"unterminated',
  // Raw tab and CR between tokens: JSON whitespace (found by the property below, seed -393899520).
  '{"type":"t",\r"id":"a",\t"parentId":[1,\r2]}',
];

describe('the envelope scanner on bytes', () => {
  test('agrees with JSON.parse on known lines', () => {
    for (const line of LINES) check(encoder.encode(line));
    expect(scanBytes(encoder.encode(LINES[0]))).toEqual({ type: 'message', id: 'a1b2c3d4', parentId: null });
    expect(scanBytes(encoder.encode(LINES[4]))).toEqual({ type: 't', id: 'é', parentId: 'ü🌍' });
  });

  test('text with a lone surrogate is left to JSON.parse (its bytes would read U+FFFD instead)', () => {
    expect(scanEnvelope('{"type":"t","id":"a\ud800"}')).toBeNull();
    expect(scanEnvelope('{"type":"t","id":"\udc00b"}')).toBeNull();
    expect(scanEnvelope('{"type":"t","id":"\ud83c\udf0d"}')).toEqual({ type: 't', id: '\ud83c\udf0d', parentId: undefined });
  });

  test('leaves invalid UTF-8, overlong forms, surrogates and raw control bytes undecided', () => {
    const wrap = (mid: number[]) => new Uint8Array([...encoder.encode('{"type":"t","x":"'), ...mid, ...encoder.encode('"}')]);
    for (const bad of [
      [0xff],
      [0xc0, 0xaf],
      [0xe0, 0x80, 0xaf],
      [0xed, 0xa0, 0x80],
      [0xf4, 0x90, 0x80, 0x80],
      [0xc3],
      [0xe2, 0x82],
      [0x00],
      [0x09],
      [0x1f],
      [0x0d],
    ]) {
      expect(scanBytes(wrap(bad))).toBeNull();
      check(wrap(bad));
    }
    // Deep in a long ASCII run (where four bytes are read at a time), at every offset.
    for (let pad = 0; pad < 8; pad++) {
      const run = Array.from(encoder.encode('a'.repeat(40 + pad)));
      for (const bad of [[0xff], [0x01], [0x5c, 0x71]]) expect(scanBytes(wrap([...run, ...bad, ...run]))).toBeNull();
      expect(scanBytes(wrap([...run, 0x5c, 0x6e, 0xc3, 0xa9, ...run]))).toEqual({ type: 't', id: undefined, parentId: undefined });
    }
    // Well-formed multi-byte sequences of each length are decided.
    expect(scanBytes(wrap([0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x8c, 0x8d]))).toEqual({ type: 't', id: undefined, parentId: undefined });
  });

  test('property: JSON objects, and their byte mutations, agree with JSON.parse', () => {
    const envelope = fc.record(
      {
        type: fc.oneof(fc.string(), fc.constant('message')),
        id: fc.string({ unit: 'grapheme' }),
        parentId: fc.oneof(fc.constant(null), fc.string({ unit: 'grapheme' })),
      },
      { requiredKeys: [] },
    );
    const line = fc
      .tuple(envelope, fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 4 }), fc.boolean())
      .map(([env, body, first]) => encoder.encode(JSON.stringify(first ? { ...env, ...body } : { ...body, ...env })));
    fc.assert(
      fc.property(line, (bytes) => check(bytes)),
      { numRuns: 400 },
    );
    const mutated = fc.tuple(line, fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 })).map(([bytes, flips]) => {
      const out = bytes.slice();
      for (const [at, value] of flips) if (out.length) out[at % out.length] = value === 10 ? 32 : value;
      return out;
    });
    fc.assert(
      fc.property(mutated, (bytes) => check(bytes)),
      { numRuns: 1500 },
    );
  });
});
