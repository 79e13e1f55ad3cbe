// Bad input through a real import (the worker API over the in-memory store, in Node):
// every case of fixtures/bad/cases.json gets its outcome with the file's name, the line and a
// reason; sessions stored before are byte-identical afterwards; the index matches the files; no
// stray file is left; and what was kept is exported byte for byte.
import { describe, expect, test } from 'vitest';
import { parse } from '../../src/core/index.ts';
import { createStore } from '../../src/storage/store.ts';
import { createApi } from '../../src/worker/api.ts';
import { deepNesting, hugeLine, longChain, TEST_SIZES, bytesOf } from '../core/read/bad-input-big.ts';
import { bytesOfCase, cases, type BadCase } from '../core/read/bad-input-cases.ts';
import { memoryStore, sessionText } from '../storage/helpers.ts';

function setup(quota?: number) {
  const { disk, store } = memoryStore({ now: () => 1_700_000_000_000, quota });
  let n = 0;
  const api = createApi({ store, now: () => new Date('2026-03-04T05:06:07.000Z'), randomId: () => (++n).toString(16).padStart(8, '0') });
  return { api, store, disk };
}

const file = (name: string, content: string | Uint8Array) => new File([content as BlobPart], name);
const bytesOfBlob = async (blob: Blob) => new Uint8Array(await blob.arrayBuffer());
const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

// Two sessions stored before anything bad arrives; they must come out byte for byte.
const PRECIOUS = [sessionText('precious-1', 3), sessionText('precious-2', 1)];

async function storePrecious(api: ReturnType<typeof setup>['api']) {
  await api.importFiles({ files: PRECIOUS.map((t, i) => file(`precious-${i}.jsonl`, t)) });
  return Promise.all(['precious-1', 'precious-2'].map(async (id) => bytesOfBlob((await api.exportSession({ id })).blob)));
}

/** The disk's files, except the index (index.json and its log): only sessions and their stored envelope indexes may be there (no tmp, spool, or stray names). */
function strayFiles(disk: ReturnType<typeof setup>['disk']): string[] {
  const ofSession = (p: string) => {
    const m = /^envelopes\/([^/]+)\.idx$/.exec(p);
    return m !== null && disk.files.has(`sessions/${m[1]}.jsonl`);
  };
  return [...disk.files.keys()].filter((p) => p !== 'index.json' && p !== 'index.log' && !/^sessions\/[^/]+\.jsonl$/.test(p) && !ofSession(p));
}

function checkItem(c: BadCase, items: Array<{ name: string; outcome: string; line?: number; reason?: string; problems?: number; id?: string }>) {
  const want = c.import;
  if (want.items) {
    expect(
      items.map((i) => i.outcome),
      c.file,
    ).toEqual(want.items.map((i) => i.outcome));
    want.items.forEach((w, k) => {
      const got = items[k];
      if (w.name) expect(got.name).toBe(w.name);
      else expect(got.name.startsWith(c.file)).toBe(true);
      if (w.line !== undefined) expect(got.line).toBe(w.line);
      if (w.reason) expect(got.reason).toContain(w.reason);
      // Entry names never climb out: no "..", no leading slash, no drive.
      expect(got.name).not.toMatch(/(^|\/)\.\.(\/|$)|^\/|[A-Za-z]:/);
    });
    return;
  }
  expect(items, c.file).toHaveLength(1);
  const got = items[0];
  expect(got.name).toBe(c.file);
  expect(got.outcome).toBe(want.outcome);
  if (want.outcome === 'rejected') {
    expect(got.reason).toMatch(/\S/);
    expect(got.id).toBeUndefined();
  } else {
    expect(got.problems).toBe(want.problems);
  }
  expect(got.line).toBe(want.line);
  if (want.reason) expect(got.reason).toContain(want.reason);
}

describe('every bad-input case through importFiles', () => {
  test.each(cases.map((c) => [c.file, c] as const))('%s', async (name, c) => {
    const { api, disk, store } = setup();
    const before = await storePrecious(api);
    const input = bytesOfCase(name);
    const report = await api.importFiles({ files: [file(name, input)] });
    checkItem(c, report.items);
    // Nothing already stored changed.
    for (const [i, id] of ['precious-1', 'precious-2'].entries()) expect(same(await bytesOfBlob((await api.exportSession({ id })).blob), before[i])).toBe(true);
    expect(strayFiles(disk)).toEqual([]);
    // What was kept is exported exactly as it came (BOM, CRLF, torn tail and garbage lines included).
    const added = report.items.filter((i) => i.outcome === 'added');
    if (!c.import.items) {
      for (const item of added) expect(same(await bytesOfBlob((await api.exportSession({ id: item.id! })).blob), input)).toBe(true);
      if (c.import.title) expect((await api.getSession({ id: added[0].id! })).title).toBe(c.import.title);
    }
    // The index says what the files say: a fresh store over the same disk lists the same.
    const listed = await api.listSessions({});
    expect(listed.map((s) => s.id).sort()).toEqual(['precious-1', 'precious-2', ...added.map((i) => i.id!)].sort());
    const again = createStore(disk, { flushDelay: 0 });
    await again.rebuild();
    const rebuilt = await again.list();
    expect(rebuilt.map((s) => [s.id, s.size, s.entryCount, s.problems]).sort()).toEqual(listed.map((s) => [s.id, s.size, s.entryCount, s.problems]).sort());
    await store.flush();
    // The worker still answers.
    expect((await api.ping({ message: 'still here' })).pong).toBe('still here');
  });

  test('all cases in one import: one item per file, in order, and every good byte kept', async () => {
    const { api, disk } = setup();
    const before = await storePrecious(api);
    const report = await api.importFiles({ files: cases.map((c) => file(c.file, bytesOfCase(c.file))) });
    const expected = cases.reduce((n, c) => n + (c.import.items?.length ?? 1), 0);
    expect(report.items).toHaveLength(expected);
    for (const c of cases) {
      const mine = report.items.filter((i) => i.name === c.file || i.name.startsWith(`${c.file}/`));
      // zip-truncated holds the same session as zip-slip: unchanged the second time.
      const items = mine.map((i) => (i.outcome === 'unchanged' ? { ...i, outcome: 'added' } : i));
      checkItem(c, items);
    }
    for (const [i, id] of ['precious-1', 'precious-2'].entries()) expect(same(await bytesOfBlob((await api.exportSession({ id })).blob), before[i])).toBe(true);
    expect(strayFiles(disk)).toEqual([]);
  });
});

describe('what happens next to a bad file that was kept', () => {
  test('appending to a torn file ends the fragment with "\\n" first: the new entry is whole, the fragment stays a reported line', async () => {
    const { api } = setup();
    const input = bytesOfCase('torn-last-line.jsonl');
    const { items } = await api.importFiles({ files: [file('t.jsonl', input)] });
    await api.labelEntry({ id: items[0].id!, entryId: 'a0000002', label: 'checked' });
    const out = await bytesOfBlob((await api.exportSession({ id: items[0].id! })).blob);
    expect(same(out.subarray(0, input.length), input)).toBe(true);
    const s = parse(out);
    expect(s.problems.map((p) => [p.code, p.line])).toEqual([['invalid-json', 4]]);
    expect(s.entries.at(-1)).toMatchObject({ type: 'label', targetId: 'a0000002', label: 'checked', parentId: 'a0000002' });
  });

  test('renaming a file whose omp title slot is not 256 bytes writes a whole new 256-byte slot and keeps every other byte', async () => {
    for (const name of ['title-slot-short.jsonl', 'title-slot-long.jsonl']) {
      const { api } = setup();
      const input = bytesOfCase(name);
      const { items } = await api.importFiles({ files: [file(name, input)] });
      await api.renameSession({ id: items[0].id!, title: 'Renamed <b>safely</b>' });
      const out = await bytesOfBlob((await api.exportSession({ id: items[0].id! })).blob);
      const nl = out.indexOf(10);
      expect(nl + 1).toBe(256);
      const oldFirst = input.indexOf(10) + 1;
      expect(same(out.subarray(256, 256 + input.length - oldFirst), input.subarray(oldFirst))).toBe(true);
      const s = parse(out);
      expect(s.problems).toEqual([]);
      expect(s.header?.title).toBe('Renamed <b>safely</b>');
    }
  });

  test('a torn copy of a stored session is recognised as older (kept-newer); the stored bytes do not change', async () => {
    const { api } = setup();
    const full = sessionText('torn-copy', 3);
    await api.importFiles({ files: [file('full.jsonl', full)] });
    const cut = full.slice(0, full.length - 30);
    expect((await api.importFiles({ files: [file('cut.jsonl', cut)] })).items[0]).toMatchObject({ outcome: 'kept-newer', id: 'torn-copy' });
    expect(new TextDecoder().decode(await bytesOfBlob((await api.exportSession({ id: 'torn-copy' })).blob))).toBe(full);
  });
});

describe('big generated cases through importFiles (modest sizes; full sizes in the bench)', () => {
  test.each([hugeLine(TEST_SIZES.lineMb), longChain(TEST_SIZES.chain), deepNesting(TEST_SIZES.depth)].map((c) => [c.name, c] as const))('%s', async (_n, c) => {
    const { api } = setup();
    const before = await storePrecious(api);
    const report = await api.importFiles({ files: [file(c.name, new Blob(c.parts as BlobPart[]) as unknown as Uint8Array)] });
    const deep = c.name.startsWith('deep');
    expect(report.items).toEqual([
      { name: c.name, outcome: 'added', id: c.id, problems: deep ? 1 : 0, ...(deep ? { line: 4, reason: expect.stringContaining('') } : {}) },
    ]);
    const s = await api.getSession({ id: c.id });
    expect(s.entryCount).toBe(c.entries);
    expect(s.size).toBe(c.size);
    expect(same(await bytesOfBlob((await api.exportSession({ id: c.id })).blob), bytesOf(c))).toBe(true);
    for (const [i, id] of ['precious-1', 'precious-2'].entries()) expect(same(await bytesOfBlob((await api.exportSession({ id })).blob), before[i])).toBe(true);
  });
});

describe('a full disk (memory disk with a quota)', () => {
  test('importing more than fits stops with a message naming the file; what was stored is intact; no partial file; the index is right', async () => {
    const { api, disk } = setup(64 * 1024);
    const before = await storePrecious(api);
    const beforeList = await api.listSessions({});
    const small = sessionText('fits-too', 2);
    const big = sessionText('too-big', 400);
    const error = await api
      .importFiles({ files: [file('small.jsonl', small), file('big.jsonl', big), file('later.jsonl', sessionText('never-reached', 1))] })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toMatchObject({ code: 'quota-exceeded', file: 'big.jsonl' });
    expect((error as Error).message).toContain('big.jsonl');
    expect((error as Error).message).toContain('1 file imported before it was kept');
    for (const [i, id] of ['precious-1', 'precious-2'].entries()) expect(same(await bytesOfBlob((await api.exportSession({ id })).blob), before[i])).toBe(true);
    expect(strayFiles(disk)).toEqual([]);
    const list = await api.listSessions({});
    expect(list.map((s) => s.id).sort()).toEqual([...beforeList.map((s) => s.id), 'fits-too'].sort());
    // An update that does not fit leaves the stored session as it was.
    await expect(api.importFiles({ files: [file('grown.jsonl', sessionText('precious-1', 400))] })).rejects.toMatchObject({ code: 'quota-exceeded' });
    expect(same(await bytesOfBlob((await api.exportSession({ id: 'precious-1' })).blob), before[0])).toBe(true);
    expect((await api.getSession({ id: 'precious-1' })).size).toBe(before[0].length);
  });
});
