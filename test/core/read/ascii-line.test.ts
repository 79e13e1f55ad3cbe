// The escaped path for non-ASCII lines (src/core/read/ascii-line.ts) must read every line exactly as the
// plain path (decode the line, then parseLine) does: same values, same problems, same lines.
import { describe, expect, test, vi } from 'vitest';
import { escapedLine, firstNonAscii, highWords } from '../../../src/core/read/ascii-line.ts';
import { forEachLine, parseLine } from '../../../src/core/read/jsonl.ts';
import { forEachRecord } from '../../../src/core/read/record-stream.ts';
import { parse } from '../../../src/core/index.ts';
import { problem } from '../../../src/core/read/problems.ts';
import type { Problem } from '../../../src/core/schema/types.ts';
import { HEADER, e, jsonl, m } from '../helpers.ts';

const enc = (s: string) => new TextEncoder().encode(s);
const cat = (...parts: (string | number[])[]) => {
  const chunks = parts.map((p) => (typeof p === 'string' ? enc(p) : Uint8Array.from(p)));
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
};

// The reading every line had before the escaped path: forEachLine, then parseLine.
function plainRead(bytes: Uint8Array) {
  const problems: Problem[] = [];
  const records: unknown[] = [];
  const lineCount = forEachLine(bytes, (text, line, start, end, terminated, invalidUtf8) => {
    if (invalidUtf8) problems.push(problem(line, 'invalid-utf8', 'line is not valid UTF-8; bad bytes read as U+FFFD'));
    const value = parseLine(text, line, terminated, problems);
    if (value) records.push({ value, line, start, end });
  });
  return { records, problems, lineCount };
}

function recordRead(bytes: Uint8Array) {
  const problems: Problem[] = [];
  const records: unknown[] = [];
  const lineCount = forEachRecord(bytes, problems, (value, line, start, end) => records.push({ value, line, start, end }));
  return { records, problems, lineCount };
}

const LINES: Record<string, Uint8Array> = {
  'non-ASCII in values and keys': cat('{"a":"héllo → 🎉 日本語","ключ":["Ω≈√",{"x":"“q”"}]}\n'),
  'line separators and a BOM inside strings': cat('{"a":"x\u2028y\u2029z\ufeff"}\n'),
  'BOM at the start of the file': cat([0xef, 0xbb, 0xbf], '{"type":"session","t":"é"}\n{"b":"→"}\n'),
  'CRLF endings': cat('{"a":"é"}\r\n{"b":"→"}\r\n'),
  'escaped backslash before a non-ASCII char': cat('{"a":"\\\\é"}\n'),
  'lone backslash before a non-ASCII char (invalid escape)': cat('{"a":"\\é"}\n'),
  'non-ASCII right after a \\u escape': cat('{"a":"\\u00é1"}\n'),
  'non-ASCII outside a string': cat('{"a":1,é:2}\n', '{"a":1}→\n'),
  'existing escapes beside raw non-ASCII': cat('{"a":"\\u2192 → \\ud83c\\udf89 🎉 \\"q\\" é"}\n'),
  'invalid UTF-8: lone continuation, overlong, surrogate, too big, truncated': cat(
    '{"a":"',
    [0x80],
    '"}\n{"a":"',
    [0xc0, 0xaf],
    '"}\n{"a":"',
    [0xed, 0xa0, 0x80],
    '"}\n{"a":"',
    [0xf4, 0x90, 0x80, 0x80],
    '"}\n{"a":"',
    [0xe2, 0x86],
    '"}\n',
  ),
  'whitespace-only lines with non-ASCII spaces': cat('\u00a0\u00a0\n\u2028\n{"a":"é"}\n'),
  'line starting with whitespace then an object': cat(' {"a":"é"}\n'),
  'torn last line with non-ASCII': cat('{"a":"é"}\n{"b":"→'),
  'complete last line without a newline': cat('{"a":"é"}\n{"b":"→"}'),
  'not an object': cat('["é"]\n"→"\n'),
  'two objects on one line': cat('{"a":"é"}{"b":"→"}\n'),
  'mostly non-ASCII (escaping would be longer)': cat(`{"a":"${'日本語'.repeat(50)}"}\n`),
  'blank lines': cat('\n\n{"a":"é"}\n\n'),
};

describe('forEachRecord reads bytes as forEachLine + parseLine do', () => {
  for (const [name, bytes] of Object.entries(LINES)) {
    test(name, () => {
      expect(recordRead(bytes)).toEqual(plainRead(bytes));
    });
  }

  test('from an unaligned view, across every offset', () => {
    const body = cat('{"a":"abc→def","b":"🎉"}\n{"c":"plain ascii line here"}\n{"d":"é"}\n');
    for (let off = 0; off < 8; off++) {
      const buf = new Uint8Array(body.length + off);
      buf.set(body, off);
      const view = buf.subarray(off);
      expect(recordRead(view)).toEqual(plainRead(view));
    }
  });

  test('a line holding non-ASCII reaches JSON.parse as ASCII text', () => {
    const parse = vi.spyOn(JSON, 'parse');
    try {
      recordRead(cat('{"a":"plain text, then → and 🎉"}\n'));
      expect(parse.mock.calls.map((c) => c[0])).toEqual(['{"a":"plain text, then \\u2192 and \\ud83c\\udf89"}']);
    } finally {
      parse.mockRestore();
    }
  });

  test('a whole session parses to the same records either way', () => {
    const text = jsonl(HEADER, m('a', null, { role: 'user', content: 'héllo → 🎉 日本語 “q”', timestamp: 1 }), e('b', 'a'));
    const s = parse(enc(text));
    expect(s.records.map((r) => ({ value: r.value, line: r.line, start: r.start, end: r.end }))).toEqual(
      (plainRead(enc(text)).records as { value: unknown; line: number; start: number; end: number }[]).map((r) => r),
    );
    expect(s.problems).toEqual([]);
  });
});

describe('escapedLine', () => {
  const escaped = (s: string | Uint8Array) => {
    const b = typeof s === 'string' ? enc(s) : s;
    const words = highWords(b);
    const high = firstNonAscii(b, words, 0, b.length);
    return high === b.length ? 'ascii' : escapedLine(b, words, 0, b.length, high);
  };

  test('writes each non-ASCII character as a \\u escape (surrogate pairs above U+FFFF)', () => {
    expect(escaped('{"text":"a line of text: é → 🎉"}')).toBe('{"text":"a line of text: \\u00e9 \\u2192 \\ud83c\\udf89"}');
  });

  test('finds non-ASCII bytes in the middle of long ASCII runs (the word scan)', () => {
    const long = `{"a":"${'x'.repeat(1001)}é${'y'.repeat(999)}"}`;
    expect(escaped(long)).toBe(long.replace('é', '\\u00e9'));
    expect(escaped('{"a":"' + 'z'.repeat(2000) + '"}')).toBe('ascii');
  });

  test('declines bad UTF-8, a non-ASCII character after a backslash, and text that would grow', () => {
    expect(escaped(cat('{"a":"', [0xc3], '"}'))).toBeNull();
    expect(escaped('{"a":"\\é"}')).toBeNull();
    expect(escaped(`{"a":"${'日'.repeat(40)}"}`)).toBeNull();
  });
});
