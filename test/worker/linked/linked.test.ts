// Sync decisions and write-back on a memory folder (the linked folder's interface, FolderDisk), into a
// memory store. The test writes into the folder as an agent does: appends, a torn last line then
// its completion, new sessions, a subagent folder, a file that diverged, a file that disappeared.
import { describe, expect, test } from 'vitest';
import type { FolderDisk } from '../../../src/storage/folder.ts';
import { createMemoryFolder } from '../../../src/storage/memory-folder.ts';
import { createStore } from '../../../src/storage/store.ts';
import { createApi } from '../../../src/worker/api.ts';
import { planSync } from '../../../src/worker/linked/plan.ts';
import { bytes, memoryStore, messageLine, sessionText } from '../../storage/helpers.ts';

const DIR = '--home-u-proj--';
const fileName = (id: string) => `${DIR}/2026-01-02T03-04-05-678Z_${id}.jsonl`;

function setup() {
  let clock = 1_000;
  const folder = createMemoryFolder('sessions', () => ++clock);
  let reads = 0;
  // Counts the files whose bytes a sync reads.
  const counted: FolderDisk = {
    ...folder,
    blob: (p) => {
      reads++;
      return folder.blob(p);
    },
  };
  const { store, disk } = memoryStore({ now: () => 1_700_000_000_000 });
  const api = createApi({ store, now: () => new Date('2026-06-01T00:00:00.000Z'), randomId: () => 'abcdef01', openFolder: () => counted });
  const handle = {} as FileSystemDirectoryHandle;
  const sync = () => api.syncLinkedFolder({ key: 'k', handle });
  const write = (path: string, text: string) => folder.files.set(path, { bytes: bytes(text), modified: ++clock });
  const append = (path: string, text: string) => {
    const f = folder.files.get(path)!;
    const next = new Uint8Array(f.bytes.length + bytes(text).length);
    next.set(f.bytes);
    next.set(bytes(text), f.bytes.length);
    folder.files.set(path, { bytes: next, modified: ++clock });
  };
  return { api, store, disk, folder, sync, write, append, handle, reads: () => reads };
}

describe('sync decisions (size and time first)', () => {
  test('new and changed files are read, the same size and time are not, missing ones are gone; only .jsonl', () => {
    const state = { 'a.jsonl': { size: 10, modified: 1, id: 'a' }, 'b.jsonl': { size: 10, modified: 1, id: 'b' }, 'gone.jsonl': { size: 5, modified: 1 } };
    const plan = planSync(state, [
      { path: 'a.jsonl', size: 10, modified: 1 },
      { path: 'b.jsonl', size: 10, modified: 2 },
      { path: 'c/d/run-0/session.jsonl', size: 3, modified: 1 },
      { path: 'c.jsonl', size: 3, modified: 1 },
      { path: 'notes.md', size: 3, modified: 1 },
      { path: '.git/x.jsonl', size: 3, modified: 1 },
    ]);
    expect(plan.unchanged).toEqual(['a.jsonl']);
    expect(plan.changed.map((f) => f.path)).toEqual(['b.jsonl', 'c.jsonl', 'c/d/run-0/session.jsonl']);
    expect(plan.gone).toEqual(['gone.jsonl']);
  });
});

describe('sync of a linked folder', () => {
  test('first sync imports; an unchanged folder reads no file; an append updates; a new session is added', async () => {
    const t = setup();
    t.write(fileName('s1'), sessionText('s1', 2));
    t.write(fileName('s2'), sessionText('s2', 1));
    const first = await t.sync();
    expect(first.items.map((i) => [i.outcome, i.id])).toEqual([
      ['added', 's1'],
      ['added', 's2'],
    ]);
    const reads = t.reads();
    const again = await t.sync();
    expect(again).toEqual({ items: [], unchanged: 2, gone: [], waiting: [] });
    expect(t.reads()).toBe(reads);
    t.append(fileName('s1'), `${messageLine('x1', 'e0000003', 'user', 'more')}\n`);
    t.write(fileName('s3'), sessionText('s3', 1));
    const third = await t.sync();
    expect(third.items.map((i) => [i.outcome, i.id])).toEqual([
      ['updated', 's1'],
      ['added', 's3'],
    ]);
    expect(third.unchanged).toBe(1);
    expect((await t.api.getSession({ id: 's1' })).entryCount).toBe(5);
  });

  test('a last line still being written is waited for (not reported torn), then imported once complete', async () => {
    const t = setup();
    const line = messageLine('x1', 'e0000003', 'assistant', 'a long answer');
    t.write(fileName('s1'), sessionText('s1', 2) + line.slice(0, 40));
    const first = await t.sync();
    expect(first.waiting).toEqual([fileName('s1')]);
    expect(first.items[0]).toMatchObject({ outcome: 'added', problems: 0 });
    expect((await t.api.getSession({ id: 's1' })).entryCount).toBe(4);
    t.append(fileName('s1'), line.slice(40, 60));
    const growing = await t.sync();
    expect(growing.items).toEqual([]);
    expect(growing.waiting).toEqual([fileName('s1')]);
    t.append(fileName('s1'), `${line.slice(60)}\n`);
    const done = await t.sync();
    expect(done.waiting).toEqual([]);
    expect(done.items[0]).toMatchObject({ outcome: 'updated', problems: 0 });
    const s = await t.api.getSession({ id: 's1' });
    expect([s.entryCount, s.problems, s.size]).toEqual([5, 0, t.folder.files.get(fileName('s1'))!.bytes.length]);
  });

  test('a folder of many sessions syncs in path order, a copy of a session after it unchanged and a torn one up to its last line; afterwards every lock is free', async () => {
    const t = setup();
    const ids = Array.from({ length: 20 }, (_, i) => `s${String(i).padStart(2, '0')}`);
    for (const id of ids) t.write(fileName(id), sessionText(id, 2));
    t.write(`${DIR}/zz-copy.jsonl`, sessionText('s03', 2));
    const torn = `${sessionText('t1', 1)}${messageLine('cut', 'e0000001', 'user', 'half')}`;
    t.write(fileName('t1'), torn.slice(0, -10));
    const r = await t.sync();
    expect(r.items.map((i) => [i.outcome, i.id])).toEqual([...[...ids, 't1'].map((id) => ['added', id]), ['unchanged', 's03']]);
    expect(r.waiting).toEqual([fileName('t1')]);
    expect((await t.api.getSession({ id: 't1' })).entryCount).toBe(2);
    // Another writer (a second store over the same disk, as another tab) takes every session's lock.
    const other = createStore(t.disk, { flushDelay: 0 });
    for (const id of [...ids, 't1']) expect(await other.withWriteLock(id, async () => id)).toBe(id);
    expect((await t.disk.names('sessions')).length).toBe(ids.length + 1);
  });

  test('a file gone from the folder stays in the library and the report says so; a diverged file is kept as a variant', async () => {
    const t = setup();
    t.write(fileName('s1'), sessionText('s1', 2));
    t.write(fileName('s2'), sessionText('s2', 2));
    await t.sync();
    t.folder.files.delete(fileName('s2'));
    t.write(fileName('s1'), sessionText('s1', 2, { prefix: 'f' }));
    const report = await t.sync();
    expect(report.gone).toEqual([{ path: fileName('s2'), id: 's2' }]);
    expect(report.items.map((i) => [i.outcome, i.id])).toEqual([['variant', 's1~2']]);
    expect(await t.api.getSession({ id: 's2' })).toMatchObject({ id: 's2' });
    expect((await t.sync()).gone).toEqual([]);
  });

  test('a subagent folder written after its parent is linked to it', async () => {
    const t = setup();
    t.write(fileName('p1'), sessionText('p1', 1));
    await t.sync();
    t.write(`${fileName('p1').replace(/\.jsonl$/, '')}/run9/run-0/session.jsonl`, sessionText('c1', 1));
    const report = await t.sync();
    expect(report.items[0]).toMatchObject({ outcome: 'added', id: 'c1', parentOf: 'p1' });
    expect((await t.api.sessionFamily({ id: 'p1' })).children.map((c) => c.id)).toEqual(['c1']);
  });

  test('a cancelled sync keeps what it imported and the next sync finishes the rest', async () => {
    const t = setup();
    for (let i = 0; i < 3; i++) t.write(fileName(`s${i}`), sessionText(`s${i}`, 1));
    const controller = new AbortController();
    const run = t.api.syncLinkedFolder(
      { key: 'k', handle: t.handle },
      {
        signal: controller.signal,
        progress: (p) => {
          if (p.done > 0) controller.abort();
        },
      },
    );
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    const after = await t.sync();
    expect(after.items.map((i) => i.outcome)).toEqual(['unchanged', 'added', 'added']);
  });
});

describe('omp image blobs in a linked folder', () => {
  test('a blob a synced session refers to is stored; one whose bytes do not match its name is refused', async () => {
    const { createHash } = await import('node:crypto');
    const t = setup();
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    const sha = createHash('sha256').update(png).digest('hex');
    const fake = 'f'.repeat(64);
    t.folder.files.set(`blobs/${sha}`, { bytes: png, modified: 1 });
    t.folder.files.set(`blobs/${fake}`, { bytes: png, modified: 1 });
    const text = sessionText('s1', 1).replace('question 0 for s1', `see blob:sha256:${sha} and blob:sha256:${fake}`);
    t.write(fileName('s1'), text);
    const report = await t.sync();
    expect(report.items.map((i) => [i.name, i.outcome])).toEqual([
      [fileName('s1'), 'added'],
      [`blobs/${fake}`, 'rejected'],
    ]);
    expect(new Uint8Array(await (await t.store.readBlob(sha))!.arrayBuffer())).toEqual(png);
    expect(await t.store.hasBlob(fake)).toBe(false);
  });
});
