// The tail-first last screen (envelope-tail.ts) against the full envelope index: on every file it
// decides, the same entries (bodies), byte ranges and header as indexEnvelopes + branchOfIndex +
// bodiesOf; and it decides every v2+ session whose head is plain (a test below counts them, so a
// tail way that always gave up could not pass).
import { existsSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { tailScreen } from '../../../src/core/envelope/envelope-tail.ts';
import { bodiesOf, branchOfIndex, indexEnvelopes } from '../../../src/core/index.ts';
import '../../fast-check-seed.ts';
import { CASES } from './envelope-cases.ts';
import { HEADER, bytes, e, fixtureFiles, jsonl, m } from '../helpers.ts';

const SHARED_REAL = '/work/shared/fixtures/real/';

/** Asserts the tail way agrees with the full index for these sizes of screen; true when it decided. */
function agrees(input: Uint8Array, sizes: number[] = [1, 3, 50]): boolean {
  let decided = false;
  const x = indexEnvelopes(input);
  const branch = branchOfIndex(x);
  for (const n of sizes) {
    const t = tailScreen(input, n);
    if (!t) continue;
    decided = true;
    // The last `n` of the leaf's branch as the full index gives them.
    const path = branch.slice(-n);
    expect(t.entries).toEqual(bodiesOf(x, path));
    expect(t.starts).toEqual(path.map((i) => x.starts[i]));
    expect(t.ends).toEqual(path.map((i) => x.ends[i]));
    expect(t.header).toEqual(x.header);
    expect(t.titleSlot).toEqual(x.titleSlot);
    expect(t.version).toBe(x.version);
    expect(t.readFrom).toBeGreaterThanOrEqual(0);
  }
  return decided;
}

/** The same file changed at its end the ways a live or damaged session is. */
function variants(input: Uint8Array): Record<string, Uint8Array> {
  const text = new TextDecoder().decode(input);
  const cut = (k: number) => input.subarray(0, Math.max(0, input.length - k));
  const plus = (s: string) => bytes(text + s);
  const noNl = text.endsWith('\n') ? text.slice(0, -1) : text;
  return {
    'as it is': input,
    'no final newline': bytes(noNl),
    'last line torn (1 byte)': cut(2),
    'last line torn (20 bytes)': cut(21),
    CRLF: bytes(text.replaceAll('\n', '\r\n')),
    'a malformed last line': plus('{"type":"custom","id":"zz","parentId":null,\n'),
    'a label after the leaf': plus(`${JSON.stringify({ type: 'label', id: 'lbl', parentId: null, targetId: 'x', label: 'L', timestamp: 't' })}\n`),
    'a last entry without an id': plus('{"type":"custom","customType":"x"}\n'),
    'a last entry with a numeric id': plus('{"type":"custom","id":5,"parentId":null}\n'),
    'another header at the end': plus(`${JSON.stringify({ ...HEADER, id: 'other' })}\n`),
    'blank lines at the end': plus('\n \n\n'),
  };
}

describe('tailScreen agrees with the full envelope index', () => {
  const files = fixtureFiles();
  // The shared copies of the real files, where they are not the same bytes as ours.
  const ours = new Set(files.map((path) => readFileSync(path, 'latin1')));
  if (existsSync(SHARED_REAL)) files.push(...fixtureFiles(SHARED_REAL).filter((path) => !ours.has(readFileSync(path, 'latin1'))));
  for (const path of files) {
    test(`fixture ${path.split('/fixtures/')[1]} and its changed ends`, () => {
      const input = new Uint8Array(readFileSync(path));
      // The whole branch once (every line a walk can meet), then screens of a few sizes on each changed end.
      agrees(input, [1e9]);
      for (const [name, v] of Object.entries(variants(input))) {
        try {
          agrees(v);
        } catch (err) {
          throw new Error(`${name}: ${(err as Error).message}`);
        }
      }
    });
  }
  for (const [name, input] of Object.entries(CASES)) {
    test(`case: ${name}`, () => {
      for (const v of Object.values(variants(typeof input === 'string' ? bytes(input) : input))) agrees(v);
    });
  }

  test('decides every real v2+ session (so the agreement above is not empty)', () => {
    let sessions = 0;
    for (const path of fixtureFiles(new URL('../../../fixtures/real/', import.meta.url).pathname)) {
      const input = new Uint8Array(readFileSync(path));
      const x = indexEnvelopes(input);
      if (!x.isSession || x.version < 2 || x.headRecords[0]?.line > 2) continue;
      sessions++;
      expect(agrees(input), path).toBe(true);
    }
    expect(sessions).toBeGreaterThan(5);
  });

  test('forks, duplicates, orphans and cycles', () => {
    const text = jsonl(
      HEADER,
      e('a', null),
      e('b', 'a'),
      e('c', 'b'),
      e('b', 'a', 'custom', { n: 2 }),
      e('d', 'c'),
      e('x', 'nope'),
      e('y', 'x'),
      m('e', 'b', { role: 'user', content: 'fork from b', timestamp: 1 }),
      e('f', 'e'),
    );
    expect(agrees(bytes(text))).toBe(true);
    // The leaf's parent chain jumps back over a long abandoned branch: the walk reads back to it.
    const lines: object[] = [HEADER, e('r', null)];
    for (let i = 0; i < 300; i++) lines.push(e(`z${i}`, i ? `z${i - 1}` : 'r'));
    lines.push(e('leaf', 'r'));
    const t = tailScreen(bytes(jsonl(...lines)), 50);
    expect(t?.entries.map((en) => en.id)).toEqual(['r', 'leaf']);
    expect(agrees(bytes(jsonl(...lines)))).toBe(true);
    // A parent met on the way back before it is needed, twice: the later copy is the one the full index keeps.
    const twice = bytes(jsonl(HEADER, e('x', 'b'), e('b', null, 'custom', { n: 1 }), e('b', null, 'custom', { n: 2 }), e('leaf', 'x')));
    expect(tailScreen(twice, 50)?.entries.map((en) => en.n ?? en.id)).toEqual([2, 'x', 'leaf']);
    expect(agrees(twice)).toBe(true);
    // A cycle and an orphan at the end.
    expect(agrees(bytes(jsonl(HEADER, e('a', 'c'), e('b', 'a'), e('c', 'b'))))).toBe(true);
    expect(agrees(bytes(jsonl(HEADER, e('a', null), e('o', 'gone'))))).toBe(true);
  });

  test('reads only the tail of a long linear session', () => {
    const lines: object[] = [HEADER];
    for (let i = 0; i < 2000; i++) lines.push(e(`n${i}`, i ? `n${i - 1}` : null));
    const input = bytes(jsonl(...lines));
    const t = tailScreen(input, 50);
    expect(t?.entries.map((en) => en.id)).toEqual(lines.slice(-50).map((l) => (l as { id: string }).id));
    expect(t?.readFrom).toBeGreaterThan(input.length * 0.9);
  });

  test('gives up (null) where the full index must decide: v1, entries before the header, no header', () => {
    expect(tailScreen(bytes(CASES.v1 as string), 50)).toBeNull();
    expect(tailScreen(bytes(CASES['header later and twice'] as string), 50)).toBeNull();
    expect(tailScreen(bytes(CASES['no header'] as string), 50)).toBeNull();
    expect(tailScreen(bytes(''), 50)).toBeNull();
  });

  test('property: generated trees with forks, duplicate ids, orphans, bad lines and torn ends', () => {
    const ids = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h');
    const entryLine = fc
      .record({
        type: fc.constantFrom('message', 'custom', 'label', 'compaction', 'session'),
        id: fc.oneof({ weight: 8, arbitrary: ids }, fc.constant(undefined), fc.constant(7)),
        parentId: fc.oneof({ weight: 6, arbitrary: ids }, fc.constant(null), fc.constant(undefined), fc.constant('gone'), fc.constant(['x'])),
        body: fc.oneof(fc.string(), fc.constant('é "q" \\ \u2028')),
      })
      .map(({ type, id, parentId, body }) => {
        const o: Record<string, unknown> = { type, body };
        if (id !== undefined) o.id = id;
        if (parentId !== undefined) o.parentId = parentId;
        return type === 'session' ? JSON.stringify({ ...HEADER, id: 'later' }) : JSON.stringify(o);
      });
    const line = fc.oneof({ weight: 10, arbitrary: entryLine }, fc.constantFrom('', ' ', 'garbage', '{"type":"custom","id":"a",', '[1]', 'null'));
    const file = fc.record({
      lines: fc.array(line, { maxLength: 40 }),
      eol: fc.constantFrom('\n', '\r\n'),
      finalNewline: fc.boolean(),
      tear: fc.nat({ max: 30 }),
      n: fc.integer({ min: 1, max: 12 }),
    });
    fc.assert(
      fc.property(file, ({ lines, eol, finalNewline, tear, n }) => {
        let text = [JSON.stringify(HEADER), ...lines].join(eol) + (finalNewline ? eol : '');
        const b = bytes(text);
        // Torn anywhere after the header's line (a torn header is no session: the full index decides that).
        const headerEnd = JSON.stringify(HEADER).length + eol.length;
        const torn = tear > 0 && b.length - tear > headerEnd ? b.subarray(0, b.length - tear) : b;
        text = '';
        expect(agrees(torn, [n])).toBe(true);
      }),
      { numRuns: 400 },
    );
  });
});
