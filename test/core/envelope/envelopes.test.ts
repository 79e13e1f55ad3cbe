import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import {
  bodiesOf,
  bodyOf,
  branch,
  branchOfIndex,
  children,
  childrenOfIndex,
  indexEnvelopes,
  leafOf,
  leafOfIndex,
  leaves,
  leavesOfIndex,
  parse,
  scanEnvelope,
  walkBranch,
  walkIndexBranch,
} from '../../../src/core/index.ts';
import { CASES } from './envelope-cases.ts';
import { HEADER, bytes, codes, e, fixtureFiles, jsonl } from '../helpers.ts';

/** Asserts the envelope index says what parse (without schema checks) says, body by body. */
function expectAgreement(input: Uint8Array) {
  const s = parse(input, { validate: false });
  const x = indexEnvelopes(input);
  expect(x.isSession).toBe(s.isSession);
  expect(x.version).toBe(s.version);
  expect(x.header).toEqual(s.header);
  expect(x.titleSlot).toEqual(s.titleSlot);
  expect(x.lineCount).toBe(s.lineCount);
  expect(x.ids).toEqual(s.entries.map((en) => en.id));
  expect(x.parentIds).toEqual(s.entries.map((en) => en.parentId));
  expect(x.types).toEqual(s.entries.map((en) => (typeof en.type === 'string' ? en.type : undefined)));
  expect(x.lines).toEqual(s.entryLines);
  const entryRecords = s.records.filter((r) => r.kind === 'entry');
  expect(x.starts).toEqual(entryRecords.map((r) => r.start));
  expect(x.ends).toEqual(entryRecords.map((r) => r.end));
  expect(x.headRecords).toEqual(s.records.filter((r) => r.kind !== 'entry'));
  expect(x.leafId).toBe(s.leafId);
  expect(x.problems).toEqual(s.problems);
  expect([...x.indexById]).toEqual([...s.indexById]);
  expect(
    bodiesOf(
      x,
      s.entries.map((_, i) => i),
    ),
  ).toEqual(s.entries);
  const walk = walkIndexBranch(x);
  const sWalk = walkBranch(s);
  expect(walk.indices.map((i) => x.ids[i])).toEqual(sWalk.entries.map((en) => en.id));
  expect(walk.problems).toEqual(sWalk.problems);
  const position = (en: { id?: string }) => s.entries.indexOf(en as never);
  expect(leavesOfIndex(x)).toEqual(leaves(s).map(position));
  expect(childrenOfIndex(x, null)).toEqual(children(s, null).map(position));
  for (const id of x.ids.slice(0, 20)) {
    if (id === undefined) continue;
    expect(childrenOfIndex(x, id)).toEqual(children(s, id).map(position));
    expect(leafOfIndex(x, id)).toBe(leafOf(s, id));
  }
}

describe('indexEnvelopes agrees with parse', () => {
  for (const path of fixtureFiles()) {
    test(`fixture ${path.split('/fixtures/')[1]}`, () => expectAgreement(new Uint8Array(readFileSync(path))));
  }
  for (const [name, input] of Object.entries(CASES)) {
    test(name, () => expectAgreement(typeof input === 'string' ? bytes(input) : input));
  }

  test('text input gives the same index as bytes', () => {
    const text = CASES['unicode and line separators'] as string;
    const a = indexEnvelopes(text);
    const b = indexEnvelopes(bytes(text));
    expect({ ...a, bytes: null }).toEqual({ ...b, bytes: null });
    expect(a.bytes).toEqual(b.bytes);
  });
});

describe('envelope index', () => {
  test('branchOfIndex gives positions oldest first; bodies parse on demand', () => {
    const x = indexEnvelopes(bytes(jsonl(HEADER, e('a', null), e('b', 'a'), e('c', 'a'))));
    expect(branchOfIndex(x)).toEqual([0, 2]);
    expect(branchOfIndex(x, 'b')).toEqual([0, 1]);
    expect(branchOfIndex(x, 'nope')).toEqual([]);
    expect(bodyOf(x, 1)).toEqual(e('b', 'a'));
  });

  test('a cycle ends the walk', () => {
    const x = indexEnvelopes(bytes(jsonl(HEADER, e('a', 'c'), e('b', 'a'), e('c', 'b'))));
    const w = walkIndexBranch(x);
    expect(w.indices).toEqual([0, 1, 2]);
    expect(codes(w.problems)).toEqual(['2:cycle']);
  });

  test('200,000-entry chain: no stack overflow, same branch as parse', () => {
    const lines = [JSON.stringify(HEADER)];
    for (let i = 0; i < 200_000; i++)
      lines.push(`{"type":"custom","customType":"x","id":"${i.toString(16)}","parentId":${i ? `"${(i - 1).toString(16)}"` : 'null'}}`);
    const x = indexEnvelopes(bytes(lines.join('\n') + '\n'));
    expect(x.problems).toEqual([]);
    const b = branchOfIndex(x);
    expect(b).toHaveLength(200_000);
    expect(x.ids[b[0]]).toBe('0');
  }, 60_000);

  test('a 20 MB line is skipped over, not parsed, and read on demand', () => {
    const big = 'x\\"'.repeat(7 * 1024 * 1024);
    const input = bytes(jsonl(HEADER) + `{"type":"message","message":{"role":"user","content":"${big}"},"id":"a","parentId":null}\n`);
    const x = indexEnvelopes(input);
    expect(x.ids).toEqual(['a']);
    expect(x.problems).toEqual([]);
    expect((bodyOf(x, 0)!.message as { content: string }).content.length).toBe(14 * 1024 * 1024);
  }, 60_000);

  test('the branch of a real v1 file matches parse', () => {
    const input = new Uint8Array(readFileSync(new URL('../../../fixtures/real/pi-mono-large-session.jsonl', import.meta.url)));
    const s = parse(input);
    const x = indexEnvelopes(input);
    expect(bodiesOf(x, branchOfIndex(x))).toEqual(branch(s));
  });
});

describe('scanEnvelope', () => {
  test('reads top-level keys only, wherever they are', () => {
    expect(scanEnvelope('{"data":{"id":"no","type":"x"},"type":"custom","parentId":null,"id":"a"}')).toEqual({ type: 'custom', id: 'a', parentId: null });
    expect(scanEnvelope('{"text":"\\"id\\":\\"no\\"","type":"t"}')).toEqual({ type: 't', id: undefined, parentId: undefined });
    expect(scanEnvelope('{}')).toEqual({ type: undefined, id: undefined, parentId: undefined });
  });

  test('decides valid lines with nesting, escapes, numbers and literals', () => {
    const line = JSON.stringify({
      x: [{ a: [1, { b: null }], c: -1.5e3, d: [], e: {} }],
      y: 'é \u0001 " \\ \n /',
      t: true,
      f: false,
      type: 't',
      id: 'i',
      parentId: 'p',
    });
    expect(scanEnvelope(line)).toEqual({ type: 't', id: 'i', parentId: 'p' });
    expect(scanEnvelope(' { "type" : "t" } ')).toEqual({ type: 't', id: undefined, parentId: undefined });
  });

  test('leaves undecided what JSON.parse must decide', () => {
    for (const line of [
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
    ]) {
      expect(scanEnvelope(line)).toBeNull();
    }
  });
});
