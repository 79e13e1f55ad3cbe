import { describe, expect, test } from 'vitest';
import { once } from '../../src/storage/chunks.ts';
import { INDEX_PATH, sessionPath } from '../../src/storage/names.ts';
import { createStore } from '../../src/storage/store.ts';
import { bytes, memoryStore, sessionText } from './helpers.ts';

const decoder = new TextDecoder();

describe('store over a memory disk', () => {
  test('create, list newest first, read back the exact bytes', async () => {
    let t = 1000;
    const { store } = memoryStore({ now: () => t });
    await store.create('a', once(bytes(sessionText('a'))));
    t = 2000;
    await store.create('b', once(bytes(sessionText('b', 3))));
    const list = await store.list();
    expect(list.map((s) => s.id)).toEqual(['b', 'a']);
    expect(list[0]).toMatchObject({
      path: sessionPath('b'),
      entryCount: 6,
      branchCount: 1,
      cwd: '/home/u/proj',
      modified: 2000,
      model: 'anthropic:claude-sonnet-4-5',
    });
    expect(list[0].totals).toEqual({ tokens: 45, output: 15, cost: expect.closeTo(0.03, 9) });
    expect(decoder.decode(await store.readBytes('a'))).toBe(sessionText('a'));
    expect(await store.latest()).toBe(sessionPath('b'));
    expect(store.dir()).toBe('sessions');
  });

  test('the index is rebuilt from the files when it is deleted or corrupted', async () => {
    const { disk, store } = memoryStore();
    await store.create('a', once(bytes(sessionText('a'))));
    await store.create('b', once(bytes(sessionText('b'))));
    const before = await store.list();

    disk.files.delete(INDEX_PATH);
    const reopened = createStore(disk, { flushDelay: 0 });
    expect((await reopened.list()).map((s) => s.id).sort()).toEqual(['a', 'b']);

    disk.files.set(INDEX_PATH, { bytes: bytes('{"format":"rho-sessions-index","version":1,"sessions":[{"id":1'), modified: 5 });
    const again = createStore(disk, { flushDelay: 0 });
    const list = await again.list();
    expect(list.map((s) => s.id).sort()).toEqual(['a', 'b']);
    expect(list.find((s) => s.id === 'a')).toMatchObject({
      entryCount: before.find((s) => s.id === 'a')!.entryCount,
      size: before.find((s) => s.id === 'a')!.size,
    });
  });

  test('an index gone while the store is open is rebuilt on the next list', async () => {
    const { disk, store } = memoryStore();
    await store.create('a', once(bytes(sessionText('a'))));
    disk.files.delete(INDEX_PATH);
    expect((await store.list()).map((s) => s.id)).toEqual(['a']);
    expect(disk.files.has(INDEX_PATH)).toBe(true);
  });

  test('a stale index is corrected: added and removed files by the check after opening (announced), a grown file when it is next read', async () => {
    const { disk, store } = memoryStore();
    await store.create('a', once(bytes(sessionText('a'))));
    await store.create('gone', once(bytes(sessionText('gone'))));
    await store.flush();
    // Behind the index's back: a grows, c appears, gone disappears.
    await disk.append(sessionPath('a'), bytes(sessionText('x', 1).split('\n')[1] + '\n'));
    await disk.writeNew(sessionPath('c'), once(bytes(sessionText('c'))));
    await disk.remove(sessionPath('gone'));
    const changes: string[][] = [];
    const reopened = createStore(disk, { flushDelay: 0, onChange: (ids) => changes.push(ids) });
    // Listed from the index at once; the check against the files follows and announces what it fixed.
    await reopened.list();
    await reopened.settled();
    expect((await reopened.list()).map((s) => s.id).sort()).toEqual(['a', 'c']);
    expect(changes.flat().sort()).toEqual(['c', 'gone']);
    // The grown file is re-read when it is next asked for, and listed right from then on.
    expect((await reopened.get('a'))!.entryCount).toBe(5);
    expect((await reopened.list()).find((s) => s.id === 'a')!.entryCount).toBe(5);
    await reopened.rebuild();
    expect((await reopened.list()).find((s) => s.id === 'a')!.size).toBe((await disk.size(sessionPath('a')))!);
  });

  test('appendLines ends a torn file with "\\n" first; appendRaw appends exactly', async () => {
    const { store } = memoryStore();
    const text = sessionText('a');
    await store.create('a', once(bytes(text + '{"type":"mess')));
    await store.appendLines('a', bytes('{"type":"label","id":"l1","parentId":null,"timestamp":"t","targetId":"e0000000","label":"x"}\n'));
    const after = decoder.decode(await store.readBytes('a'));
    expect(after).toBe(text + '{"type":"mess\n{"type":"label","id":"l1","parentId":null,"timestamp":"t","targetId":"e0000000","label":"x"}\n');
    await store.appendRaw('a', bytes('tail'));
    expect(decoder.decode(await store.readBytes('a')).endsWith('}\ntail')).toBe(true);
  });

  test('quota: a failed create leaves no file and the index unchanged; a failed append leaves the file as it was', async () => {
    const { disk, store } = memoryStore();
    await store.create('a', once(bytes(sessionText('a'))));
    await store.flush();
    const listed = await store.list();
    disk.quota = (await disk.estimate()).usage + 100;
    await expect(store.create('big', once(bytes(sessionText('big', 50))))).rejects.toMatchObject({ name: 'QuotaExceededError' });
    expect(await disk.size(sessionPath('big'))).toBeNull();
    await expect(store.appendRaw('a', bytes('x'.repeat(500)))).rejects.toMatchObject({ name: 'QuotaExceededError' });
    expect(decoder.decode(await store.readBytes('a'))).toBe(sessionText('a'));
    expect(await store.list()).toEqual(listed);
    const reopened = createStore(disk, { flushDelay: 0 });
    expect(await reopened.list()).toEqual(listed);
  });

  test('a full disk still lists its sessions when the rebuilt index cannot be written', async () => {
    const { disk, store } = memoryStore();
    await store.create('a', once(bytes(sessionText('a'))));
    await store.flush();
    disk.files.delete(INDEX_PATH);
    disk.quota = (await disk.estimate()).usage + 10;
    const reopened = createStore(disk, { flushDelay: 0 });
    expect((await reopened.list()).map((s) => s.id)).toEqual(['a']);
    expect(disk.files.has(INDEX_PATH)).toBe(false);
    disk.quota = Number.MAX_SAFE_INTEGER;
    await reopened.flush();
    expect(disk.files.has(INDEX_PATH)).toBe(true);
    expect((await createStore(disk).list()).map((s) => s.id)).toEqual(['a']);
  });

  test('trash and restore; a token cannot overwrite a session stored again', async () => {
    const { store } = memoryStore();
    await store.create('a', once(bytes(sessionText('a'))));
    const token = await store.trash('a');
    expect(await store.list()).toEqual([]);
    await expect(store.readBytes('a')).rejects.toMatchObject({ code: 'not-found' });
    await store.restore(token);
    expect((await store.list()).map((s) => s.id)).toEqual(['a']);
    const again = await store.trash('a');
    await store.create('a', once(bytes(sessionText('a', 1))));
    await expect(store.restore(again)).rejects.toMatchObject({ code: 'conflict' });
    await expect(store.restore('../index.json')).rejects.toMatchObject({ code: 'invalid-input' });
  });

  test('replace swaps in a whole new file; blobs by sha256 only', async () => {
    const { store } = memoryStore();
    await store.create('a', once(bytes(sessionText('a'))));
    await store.replace('a', once(bytes(sessionText('a', 4))));
    expect((await store.get('a'))!.entryCount).toBe(8);
    const sha = 'cd'.repeat(32);
    expect(await store.readBlob(sha)).toBeNull();
    await store.writeBlob(sha, bytes('png'));
    expect(await (await store.readBlob(sha))!.text()).toBe('png');
    expect(await store.readBlob('../index.json')).toBeNull();
    await expect(store.writeBlob('nope', bytes('x'))).rejects.toMatchObject({ code: 'invalid-input' });
  });

  test('ids that are not file-name safe are stored under an encoded name', async () => {
    const { disk, store } = memoryStore();
    await store.create('we/ird:id', once(bytes(sessionText('we/ird:id'))));
    expect([...disk.files.keys()]).toContain('sessions/we%2Fird%3Aid.jsonl');
    const reopened = createStore(disk, { flushDelay: 0 });
    await reopened.rebuild();
    expect((await reopened.list()).map((s) => s.id)).toEqual(['we/ird:id']);
  });
});
