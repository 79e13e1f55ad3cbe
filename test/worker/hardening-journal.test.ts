// Crashes, in Node: a worker that dies between a write and the index flush, or in the
// middle of an append, leaves a journal mark; the next store to open (or the next writer of that
// session) puts the session back to its old or new state and the index right. The kills
// themselves, in Chromium, are in test/e2e/hardening-crash.spec.ts.
import { describe, expect, test } from 'vitest';
import { once } from '../../src/storage/chunks.ts';
import { createMemoryDisk } from '../../src/storage/memory-disk.ts';
import { sessionPath } from '../../src/storage/names.ts';
import { createStore } from '../../src/storage/store.ts';
import { createApi } from '../../src/worker/api.ts';
import { bytes, sessionText } from '../storage/helpers.ts';

const text = (b: Uint8Array) => new TextDecoder().decode(b);
const journalNames = (disk: ReturnType<typeof createMemoryDisk>) => [...disk.files.keys()].filter((p) => p.startsWith('journal/'));

function api(disk: ReturnType<typeof createMemoryDisk>, flushDelay: number) {
  const store = createStore(disk, { flushDelay });
  let n = 0;
  return { store, api: createApi({ store, now: () => new Date('2026-03-04T05:06:07.000Z'), randomId: () => (++n).toString(16).padStart(8, '0') }) };
}

describe('a worker that dies after a write, before the index is written', () => {
  test('the next store lists the session as the file is (the index is never left behind)', async () => {
    const disk = createMemoryDisk();
    const first = createStore(disk, { flushDelay: 0 });
    await first.create('s', once(bytes(sessionText('s', 2))));
    await first.flush();
    // A store whose index writes are far off: it "dies" right after the append returns.
    const dying = createStore(disk, { flushDelay: 60_000 });
    await dying.appendLines('s', bytes(sessionText('x', 1).split('\n')[1].replace('"parentId":null', '"parentId":"e0000003"') + '\n'));
    const size = disk.files.get(sessionPath('s'))!.bytes.length;
    expect(journalNames(disk)).toEqual(['journal/s']);
    const next = createStore(disk, { flushDelay: 0 });
    const listed = await next.list();
    expect(listed.map((x) => [x.id, x.size, x.entryCount])).toEqual([['s', size, 5]]);
    expect(journalNames(disk)).toEqual([]);
  });
});

describe('a worker that dies in the middle of an append', () => {
  async function halfWritten() {
    const disk = createMemoryDisk();
    const first = createStore(disk, { flushDelay: 0 });
    const old = sessionText('s', 2);
    await first.create('s', once(bytes(old)));
    await first.flush();
    // What a writer killed between two chunks leaves: its "writing" mark and part of the new bytes.
    const grown = sessionText('s', 40);
    disk.files.set('journal/s', { bytes: bytes(JSON.stringify({ size: old.length, done: false })), modified: 1 });
    disk.files.set(sessionPath('s'), { bytes: bytes(grown.slice(0, old.length + 1000)), modified: 2 });
    return { disk, old, grown };
  }

  test('the next store to open rolls it back to the old bytes and lists them', async () => {
    const { disk, old } = await halfWritten();
    const next = createStore(disk, { flushDelay: 0 });
    expect((await next.list()).map((x) => [x.id, x.size, x.problems])).toEqual([['s', old.length, 0]]);
    expect(text(await next.readBytes('s'))).toBe(old);
    expect(journalNames(disk)).toEqual([]);
  });

  test('when this worker already holds the session (it is importing it), the import itself rolls back first, then gives the new state', async () => {
    const { disk, grown, old } = await halfWritten();
    const { api: a } = api(disk, 0);
    // The first call of the new worker is the import of that very session: recovery skips it (locked), the write resolves it.
    const report = await a.importFiles({ files: [new File([grown], 's.jsonl')] });
    expect(report.items[0]).toMatchObject({ outcome: 'updated', id: 's', problems: 0 });
    expect(text(await (await a.exportSession({ id: 's' })).blob.arrayBuffer().then((b) => new Uint8Array(b)))).toBe(grown);
    expect((await a.listSessions({})).map((x) => [x.id, x.size])).toEqual([['s', new TextEncoder().encode(grown).length]]);
    expect(old.length).toBeLessThan(grown.length);
    expect(journalNames(disk)).toEqual([]);
  });

  test('a label appended after a dead half-append lands after the old bytes, whole', async () => {
    const { disk, old } = await halfWritten();
    const store = createStore(disk, { flushDelay: 0 });
    // Hold the session's lock while the store opens, as an API call does: recovery must leave it to the writer.
    await store.withWriteLock('s', async () => {
      await store.list();
      await store.appendLines('s', bytes('{"type":"label","id":"l0000001","parentId":"e0000003","timestamp":"t","targetId":"e0000003","label":"ok"}\n'));
    });
    const now = text(await store.readBytes('s'));
    expect(now.startsWith(old)).toBe(true);
    expect(now.slice(old.length)).toBe('{"type":"label","id":"l0000001","parentId":"e0000003","timestamp":"t","targetId":"e0000003","label":"ok"}\n');
    await store.flush();
    expect(journalNames(disk)).toEqual([]);
  });

  test('a failed append (full disk) leaves no mark and nothing to roll back', async () => {
    const disk = createMemoryDisk();
    const store = createStore(disk, { flushDelay: 0 });
    await store.create('s', once(bytes(sessionText('s', 2))));
    await store.flush();
    disk.quota = (await disk.estimate()).usage + 10;
    await expect(store.appendRaw('s', bytes('x'.repeat(100)))).rejects.toMatchObject({ name: 'QuotaExceededError' });
    expect(journalNames(disk)).toEqual([]);
  });
});
