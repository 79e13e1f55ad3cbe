import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { parse, read, readHeader, serialize, v1Id } from '../../../src/core/index.ts';
import { HEADER, bytes, codes, e, fixtureFiles, jsonl, m } from '../helpers.ts';

const user = (text: string) => ({ role: 'user', content: text, timestamp: 1 });

describe('parse', () => {
  test('reads header, entries in file order, id index and leaf', () => {
    const s = parse(jsonl(HEADER, e('a', null), m('b', 'a', user('hi')), e('c', 'b')));
    expect(s.isSession).toBe(true);
    expect(s.header?.id).toBe(HEADER.id);
    expect(s.version).toBe(3);
    expect(s.entries.map((x) => x.id)).toEqual(['a', 'b', 'c']);
    expect(s.entryLines).toEqual([2, 3, 4]);
    expect(s.records.map((r) => r.kind)).toEqual(['header', 'entry', 'entry', 'entry']);
    expect(s.byId.get('b')?.type).toBe('message');
    expect(s.leafId).toBe('c');
    expect(s.problems).toEqual([]);
  });

  test('records carry the byte range of their line, multi-byte text included', () => {
    const text = jsonl(HEADER, m('a', null, user('héllo 🌍')), e('b', 'a'));
    const b = bytes(text);
    const s = parse(b);
    for (const r of s.records) {
      const line = new TextDecoder().decode(b.subarray(r.start, r.end));
      expect(JSON.parse(line)).toEqual(r.value);
      expect(b[r.end]).toBe(10);
    }
    expect(parse(text).records.map((r) => [r.start, r.end])).toEqual(s.records.map((r) => [r.start, r.end]));
  });

  test('text input gives the byte ranges of its UTF-8 encoding, lone surrogates included', () => {
    // A raw lone surrogate (JSON.stringify would escape it) takes 3 bytes (U+FFFD) in UTF-8.
    const text = jsonl(HEADER, '{"type":"custom","customType":"lone \ud800","id":"a","parentId":null}', e('b', 'a'), m('c', 'b', user('ü')));
    const fromText = parse(text).records.map((r) => [r.start, r.end]);
    expect(fromText).toEqual(parse(bytes(text)).records.map((r) => [r.start, r.end]));
    expect(fromText.at(-1)?.[1]).toBe(bytes(text).length - 1);
  });

  test('keeps unknown types and unknown fields untouched', () => {
    const odd = { ...e('a', null, 'future_thing'), extra: { deep: [1, 2] } };
    const s = parse(jsonl({ ...HEADER, shiny: true }, odd));
    expect(s.entries[0]).toEqual(odd);
    expect(s.header?.shiny).toBe(true);
    expect(s.problems).toEqual([]);
  });

  test('leaf is the last entry with an id; id-less entries are kept but not indexed', () => {
    const s = parse(jsonl(HEADER, e('a', null), { type: 'custom', customType: 'x' }));
    expect(s.entries).toHaveLength(2);
    expect(s.leafId).toBe('a');
    expect(s.byId.size).toBe(1);
  });

  test('splits on \\n only and tolerates \\r', () => {
    const s = parse(JSON.stringify(HEADER) + '\r\n' + JSON.stringify(m('a', null, user('x\u2028y\u0085z'))) + '\r\n');
    expect(s.problems).toEqual([]);
    expect((s.entries[0].message as { content: string }).content).toBe('x\u2028y\u0085z');
    expect(s.records[1].end - s.records[1].start).toBe(bytes(JSON.stringify(m('a', null, user('x\u2028y\u0085z'))) + '\r').length);
  });

  test('a BOM is dropped at the start of the input only, for text and bytes alike', () => {
    const text = '\ufeff' + jsonl(HEADER) + '\ufeff' + jsonl(e('a', null));
    for (const input of [text, bytes(text)]) {
      const s = parse(input);
      expect(s.header?.id).toBe(HEADER.id);
      expect(codes(s.problems)).toEqual(['2:invalid-json']);
    }
  });

  test('blank lines are skipped silently, line numbers stay physical', () => {
    const s = parse('\n  \n' + jsonl(HEADER) + '\n' + jsonl(e('a', null)));
    expect(s.problems).toEqual([]);
    expect(s.records.map((r) => r.line)).toEqual([3, 5]);
  });

  test('torn last line: skipped and reported, the rest read', () => {
    const s = parse(jsonl(HEADER, e('a', null)) + '{"type":"message","id":"b","par');
    expect(codes(s.problems)).toEqual(['3:torn']);
    expect(s.problems[0].severity).toBe('error');
    expect(s.leafId).toBe('a');
  });

  test('a complete last line without "\\n" is kept', () => {
    const s = parse(jsonl(HEADER) + JSON.stringify(e('a', null)));
    expect(s.problems).toEqual([]);
    expect(s.leafId).toBe('a');
  });

  test('garbage and non-object lines are skipped with their line numbers', () => {
    const s = parse(jsonl(HEADER, 'not json', 'null', '123', '[1]', '"s"', '{"a":1}{"b":2}', e('a', null)));
    expect(codes(s.problems)).toEqual(['2:invalid-json', '3:not-an-object', '4:not-an-object', '5:not-an-object', '6:not-an-object', '7:invalid-json']);
    expect(s.entries.map((x) => x.id)).toEqual(['a']);
  });

  test('no header: not a session, entries still readable', () => {
    const s = parse(jsonl(e('a', null), e('b', 'a')));
    expect(s.isSession).toBe(false);
    expect(s.header).toBeNull();
    expect(codes(s.problems)).toEqual(['1:no-header']);
    expect(s.leafId).toBe('b');
  });

  test('empty input: not a session', () => {
    for (const input of ['', new Uint8Array(0), '\n\n']) {
      const s = parse(input);
      expect(s.isSession).toBe(false);
      expect(codes(s.problems)).toEqual(['1:no-header']);
    }
  });

  test('a header without a string id is not a header', () => {
    const s = parse(jsonl({ type: 'session', version: 3 }, e('a', null)));
    expect(s.isSession).toBe(false);
    expect(codes(s.problems)).toEqual(['1:no-header']);
  });

  test('header after other records, and a second header, are reported', () => {
    const s = parse(jsonl(e('a', null), HEADER, e('b', 'a'), { ...HEADER, id: 'other' }));
    expect(s.isSession).toBe(true);
    expect(s.header?.id).toBe(HEADER.id);
    expect(codes(s.problems)).toEqual(['2:header-not-first', '4:header-not-first']);
    expect(s.records.map((r) => r.kind)).toEqual(['entry', 'header', 'entry', 'header']);
    expect(s.leafId).toBe('b');
  });

  test('duplicate ids: the later entry wins, both kept, reported', () => {
    const s = parse(jsonl(HEADER, e('a', null, 'custom', { n: 1 }), e('a', null, 'custom', { n: 2 })));
    expect(s.entries).toHaveLength(2);
    expect(s.byId.get('a')?.n).toBe(2);
    expect(codes(s.problems)).toEqual(['3:duplicate-id']);
  });

  test('missing parent and cycles are reported on their lines', () => {
    const s = parse(jsonl(HEADER, e('a', 'nope'), e('b', 'c'), e('c', 'b'), e('d', 'd')));
    expect(codes(s.problems)).toEqual(['2:missing-parent', '4:cycle', '5:cycle']);
  });

  test('future version: read as v3, warned', () => {
    const s = parse(jsonl({ ...HEADER, version: 7 }, e('a', null)));
    expect(codes(s.problems)).toEqual(['1:future-version']);
    expect(s.problems[0].severity).toBe('warning');
    expect(s.version).toBe(7);
    expect(s.leafId).toBe('a');
  });

  test('invalid UTF-8 is reported on its line and decoded leniently', () => {
    const good = bytes(jsonl(HEADER));
    const bad = new Uint8Array([...bytes('{"type":"custom","customType":"'), 0xff, 0xfe, ...bytes('","id":"a","parentId":null,"timestamp":"t"}\n')]);
    const s = parse(new Uint8Array([...good, ...bad]));
    expect(codes(s.problems)).toEqual(['2:invalid-utf8']);
    expect(s.leafId).toBe('a');
  });

  test('non-string id or parentId: entry kept, reported', () => {
    const s = parse(jsonl(HEADER, { type: 'custom', customType: 'x', id: 5, parentId: null, timestamp: 't' }, e('b', null, 'custom', { parentId: 7 })));
    expect(s.entries).toHaveLength(2);
    expect(s.entries[1].parentId).toBeNull();
    expect(s.problems.every((p) => p.code === 'invalid-entry')).toBe(true);
    expect(s.problems.map((p) => p.line)).toContain(2);
    expect(s.problems.map((p) => p.line)).toContain(3);
  });

  test('an entry that fails its schema is a warning on its line, never a crash', () => {
    const s = parse(jsonl(HEADER, m('a', null, { role: 'assistant', content: 'oops' }), e('b', 'a', 'compaction', { summary: 5 })));
    expect(codes(s.problems)).toEqual(['2:invalid-entry', '3:invalid-entry']);
    expect(s.problems[0].message).toMatch(/message/);
    expect(s.entries).toHaveLength(2);
    expect(parse(jsonl(HEADER, m('a', null, { role: 'assistant', content: 'oops' })), { validate: false }).problems).toEqual([]);
  });

  test('200,000-entry chain parses without stack overflow', () => {
    const lines = [JSON.stringify(HEADER)];
    for (let i = 0; i < 200_000; i++)
      lines.push(`{"type":"custom","customType":"x","id":"${i.toString(16)}","parentId":${i ? `"${(i - 1).toString(16)}"` : 'null'},"timestamp":"t"}`);
    const { session, branch } = read(lines.join('\n') + '\n');
    expect(session.problems).toEqual([]);
    expect(branch).toHaveLength(200_000);
    expect(branch[0].id).toBe('0');
  }, 60_000);

  test('a 20 MB single line is read', () => {
    const big = 'x'.repeat(20 * 1024 * 1024);
    const s = parse(jsonl(HEADER, m('a', null, user(big))));
    expect(s.problems).toEqual([]);
    expect((s.entries[0].message as { content: string }).content.length).toBe(big.length);
    const torn = parse(jsonl(HEADER) + '{"type":"message","x":"' + big);
    expect(codes(torn.problems)).toEqual(['2:torn']);
    expect(torn.problems[0].message.length).toBeLessThan(300);
  }, 60_000);
});

describe('title slot', () => {
  const slot = { type: 'title', v: 1, title: 'Slot title', source: 'user', updatedAt: '2026-01-01T00:00:00.000Z', pad: '   ' };

  test('is recognised on line 1, kept as a record, and applied to the header', () => {
    const s = parse(jsonl(slot, { ...HEADER, title: 'stale' }, e('a', null)));
    expect(s.titleSlot?.title).toBe('Slot title');
    expect(s.records.map((r) => r.kind)).toEqual(['title', 'header', 'entry']);
    expect(s.header?.title).toBe('Slot title');
    expect(s.header?.titleSource).toBe('user');
    expect(s.entries).toHaveLength(1);
    expect(s.problems).toEqual([]);
  });

  test('an empty slot title deletes the header title', () => {
    const s = parse(jsonl({ ...slot, title: '' }, { ...HEADER, title: 'stale' }));
    expect(s.header?.title).toBeUndefined();
  });

  test('an invalid slot is reported and the file has no header first', () => {
    const s = parse(jsonl({ ...slot, v: 2 }, HEADER));
    expect(s.titleSlot).toBeNull();
    expect(codes(s.problems)).toContain('1:title-slot');
    expect(codes(s.problems)).toContain('2:header-not-first');
  });
});

describe('v1/v2 migration', () => {
  test('v1: deterministic 8-hex ids from line numbers, a linear chain, firstKeptEntryIndex → id', () => {
    const v1 = jsonl(
      { type: 'session', id: 's', timestamp: 't' },
      { type: 'message', timestamp: 't', message: user('a') },
      'garbage',
      { type: 'message', timestamp: 't', message: user('b') },
      { type: 'compaction', timestamp: 't', summary: 'S', firstKeptEntryIndex: 2, tokensBefore: 5 },
    );
    const s = parse(v1);
    const s2 = parse(v1);
    expect(s.version).toBe(1);
    expect(s.entries.map((x) => x.id)).toEqual([v1Id(2), v1Id(4), v1Id(5)]);
    expect(s.entries.map((x) => x.id)).toEqual(s2.entries.map((x) => x.id));
    expect(s.entries.every((x) => /^[0-9a-f]{8}$/.test(x.id as string))).toBe(true);
    expect(s.entries.map((x) => x.parentId)).toEqual([null, v1Id(2), v1Id(4)]);
    expect(s.entries[2].firstKeptEntryId).toBe(v1Id(4));
    expect('firstKeptEntryIndex' in s.entries[2]).toBe(false);
    expect(s.leafId).toBe(v1Id(5));
    expect(codes(s.problems)).toEqual(['3:invalid-json']);
  });

  test('v2: hookMessage becomes custom', () => {
    const s = parse(jsonl({ ...HEADER, version: 2 }, m('a', null, { role: 'hookMessage', customType: 'x', content: 'c', display: true })));
    expect((s.entries[0].message as { role: string }).role).toBe('custom');
  });
});

describe('readHeader', () => {
  test('reads header and slot from the first lines only', () => {
    const slot = { type: 'title', v: 1, title: 'T', updatedAt: 'u', pad: ' ' };
    const r = readHeader(bytes(jsonl(slot, HEADER) + '{torn'));
    expect(r.header?.id).toBe(HEADER.id);
    expect(r.header?.title).toBe('T');
    expect(r.titleSlot?.title).toBe('T');
    expect(r.problem).toBeUndefined();
  });

  test('reports a missing, garbled or future header', () => {
    expect(readHeader(bytes(jsonl(e('a', null)))).problem?.code).toBe('no-header');
    expect(readHeader(bytes('')).problem?.code).toBe('no-header');
    expect(readHeader(bytes('{"type":"sess')).problem?.code).toBe('torn');
    expect(readHeader(bytes('xx\n')).problem?.code).toBe('invalid-json');
    const future = readHeader(bytes(jsonl({ ...HEADER, version: 4 })));
    expect(future.header?.id).toBe(HEADER.id);
    expect(future.problem?.code).toBe('future-version');
  });
});

describe('serialize', () => {
  const dir = new URL('../../../fixtures/real/', import.meta.url);
  for (const name of readdirSync(dir).filter((f) => f.endsWith('.jsonl'))) {
    test(`is byte-identical for fixtures/real/${name}`, () => {
      const original = new Uint8Array(readFileSync(new URL(name, dir)));
      expect(Buffer.from(serialize(parse(original), original)).equals(Buffer.from(original))).toBe(true);
    });
  }

  test('is byte-identical for every fixture with no skipped or blank line', () => {
    let identical = 0;
    for (const path of fixtureFiles()) {
      const original = new Uint8Array(readFileSync(path));
      const s = parse(original);
      const skipped = s.problems.some((p) => ['torn', 'invalid-json', 'not-an-object'].includes(p.code));
      if (skipped || s.records.length !== s.lineCount) continue;
      expect([path, Buffer.from(serialize(s, original)).equals(Buffer.from(original))]).toEqual([path, true]);
      identical++;
    }
    expect(identical).toBeGreaterThan(5);
  });

  test('drops skipped lines and keeps \\r and an unterminated last line as they were', () => {
    const text = JSON.stringify(HEADER) + '\r\nbad\n' + JSON.stringify(e('a', null));
    const b = bytes(text);
    const out = new TextDecoder().decode(serialize(parse(b), b));
    expect(out).toBe(JSON.stringify(HEADER) + '\r\n' + JSON.stringify(e('a', null)));
  });
});
