// Lines decoded in ASCII runs (src/core/read/line-runs.ts) must be the lines a one-line-at-a-time reader
// sees: same count, same byte ranges, same text ("\r" dropped), the non-ASCII ones handed back
// whole, at every place a run can stop (a non-ASCII byte, RUN_MAX, the range's end).
import { describe, expect, test } from 'vitest';
import { highWords } from '../../../src/core/read/ascii-line.ts';
import { decodeLine, forEachLine } from '../../../src/core/read/jsonl.ts';
import { forEachLineRun, RUN_MAX } from '../../../src/core/read/line-runs.ts';

const enc = (s: string) => new TextEncoder().encode(s);

type Seen = { text: string; start: number; end: number; ascii: boolean };

function viaRuns(bytes: Uint8Array, start = 0, end = bytes.length): Seen[] {
  const out: Seen[] = [];
  forEachLineRun(
    bytes,
    highWords(bytes),
    start,
    end,
    (text, s, e) => out.push({ text, start: s, end: e, ascii: true }),
    (s, e) => out.push({ text: decodeLine(bytes, s, e).text, start: s, end: e, ascii: false }),
  );
  return out;
}

// One line at a time, split on "\n" only.
function naive(bytes: Uint8Array, start = 0, end = bytes.length): Seen[] {
  const out: Seen[] = [];
  let i = start;
  for (;;) {
    const nl = bytes.indexOf(10, i);
    const stop = nl < 0 || nl > end ? end : nl;
    const ascii = bytes.subarray(i, stop).every((b) => b < 0x80);
    out.push({ text: decodeLine(bytes, i, stop).text, start: i, end: stop, ascii });
    if (stop === end) return out;
    i = stop + 1;
  }
}

describe('forEachLineRun', () => {
  test.each([
    ['one line', 'a'],
    ['empty range', ''],
    ['blank lines', '\n\n\n'],
    ['CRLF', '{"a":1}\r\n{"b":2}\r\n\r'],
    ['non-ASCII in the middle', '{"a":1}\n{"b":"é"}\n{"c":3}\n{"d":"漢字"}'],
    ['non-ASCII first and last', 'é\nplain\n🎉'],
    ['a lone "\\r"', '\r'],
  ])('%s: the lines of a one-line-at-a-time reader', (_name, text) => {
    const bytes = enc(text);
    expect(viaRuns(bytes)).toEqual(naive(bytes));
  });

  test("a BOM at offset 0 is the caller's line (decoded on its own, where decodeLine drops it)", () => {
    const bytes = enc('\ufeff{"a":1}\n{"b":2}');
    const lines = viaRuns(bytes);
    expect(lines.map((l) => [l.text, l.ascii])).toEqual([
      ['{"a":1}', false],
      ['{"b":2}', true],
    ]);
  });

  test('a sub-range ending at a "\\n" is read to that "\\n" and no further', () => {
    const bytes = enc('x\n{"a":1}\n{"b":"ü"}\n{"c":3}\nrest');
    const end = bytes.lastIndexOf(10);
    expect(viaRuns(bytes, 2, end)).toEqual(naive(bytes, 2, end));
    expect(viaRuns(bytes, 2, end).at(-1)?.text).toBe('{"c":3}');
  });

  test('runs stop at RUN_MAX between lines; an ASCII line longer than RUN_MAX is handed back whole', () => {
    const short = `{"t":"${'x'.repeat(1000)}"}`;
    const long = `{"t":"${'y'.repeat(RUN_MAX + 10)}"}`;
    const exact = 'z'.repeat(RUN_MAX);
    const lines: string[] = [];
    for (let k = 0; k < 600; k++) lines.push(k % 97 === 5 ? `{"u":"ñ${k}"}` : short);
    lines.splice(300, 0, long, exact, '');
    const bytes = enc(lines.join('\n'));
    const got = viaRuns(bytes);
    expect(got).toEqual(naive(bytes).map((l) => (l.text === long ? { ...l, ascii: false } : l)));
    expect(got.length).toBe(lines.length);
  });

  test('parsing through runs reads a session exactly as reading it line by line did', () => {
    const parts: string[] = [];
    for (let k = 0; k < 3000; k++) parts.push(k % 11 === 0 ? `{"k":${k},"s":"näive ${k}"}` : `{"k":${k}}`);
    const bytes = enc(`${parts.join('\n')}\n`);
    const seen: Array<[string, number, number, number, boolean]> = [];
    const count = forEachLine(bytes, (text, line, start, end, terminated) => seen.push([text, line, start, end, terminated]));
    expect(count).toBe(3000);
    expect(seen.map((s) => s[0])).toEqual(parts);
    expect(seen.every((s) => s[4])).toBe(true);
    const n = naive(bytes, 0, bytes.length - 1);
    expect(seen.map((s) => [s[2], s[3]])).toEqual(n.map((l) => [l.start, l.end]));
  });
});
