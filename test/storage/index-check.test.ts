// The check of the index against the files when a store opens (store-index.ts reconcile): what it
// finds is written as log records, so its cost in bytes is the files it found, not the library's
// size; a new file the store is writing (an import running beside the check) is left to its own record.
import { expect, test } from 'vitest';
import { once } from '../../src/storage/chunks.ts';
import { INDEX_LOG_PATH, INDEX_PATH, sessionPath } from '../../src/storage/names.ts';
import { createStore } from '../../src/storage/store.ts';
import { bytes, countingDisk, sessionText } from './helpers.ts';

const ids = (n: number) => Array.from({ length: n }, (_, i) => `s${i.toString().padStart(4, '0')}`);

/** A library of `size` sessions with its index flushed, on a disk that counts what is written. */
async function library(size: number) {
  const counted = countingDisk();
  const store = createStore(counted.disk, { flushDelay: 60_000 });
  for (const id of ids(size)) await store.create(id, once(bytes(sessionText(id))));
  await store.flush();
  await store.settled();
  return counted;
}

test('a store that opens on a library with a file its index lacks writes that file’s record only: the same bytes beside 40 or 200 sessions', async () => {
  for (const size of [40, 200]) {
    const { disk, inner, written: counts } = await library(size);
    const indexBefore = await disk.stat(INDEX_PATH);
    const text = sessionText('behind-its-back');
    // A file the index does not know (a writer that died before its flush, another build).
    await inner.writeNew(sessionPath('behind-its-back'), once(bytes(text)));
    counts.clear();
    const store = createStore(disk, { flushDelay: 60_000 });
    // Listed while the check runs, then after it: the second listing has what the check found.
    await store.list();
    await store.settled();
    expect(counts.has(INDEX_PATH)).toBe(false);
    expect(await disk.stat(INDEX_PATH)).toEqual(indexBefore);
    const found = (await store.list()).find((s) => s.id === 'behind-its-back');
    expect(found?.size).toBe(bytes(text).length);
    // Its one record's line (and, where the log starts anew, the log's first line of under 100
    // bytes): not the index of 40 sessions (25 KB) or of 200.
    const line = bytes(JSON.stringify({ id: 'behind-its-back', s: found })).length;
    expect(counts.get(INDEX_LOG_PATH)).toBeGreaterThanOrEqual(line);
    expect(counts.get(INDEX_LOG_PATH)).toBeLessThan(line + 100);
    expect((await store.list()).length).toBe(size + 1);
    // Another store reads it from the log as well.
    expect((await createStore(disk).list()).some((s) => s.id === 'behind-its-back')).toBe(true);
  }
});

test('a store that opens on a library where a file is lost drops its record with one log line, not a new index', async () => {
  const { disk, inner, written } = await library(40);
  await inner.remove(sessionPath('s0007'));
  written.clear();
  const store = createStore(disk, { flushDelay: 60_000 });
  await store.settled();
  expect(written.has(INDEX_PATH)).toBe(false);
  expect(written.get(INDEX_LOG_PATH)).toBeLessThan(100);
  const listed = (await createStore(disk).list()).map((s) => s.id);
  expect([...listed].sort()).toEqual(ids(40).filter((id) => id !== 's0007'));
});

test('a new file this store is writing when its check runs is not read by the check; left unrecorded, the next store’s check lists it', async () => {
  const { disk, inner, reads } = await library(10);
  const path = sessionPath('being-written');
  const text = sessionText('being-written');
  const half = bytes(text.slice(0, text.length >> 1));
  const store = createStore(disk, { flushDelay: 60_000 });
  // Under the new session's write lock (as an import holds it): half of it so far, then the store opens and checks.
  await store.withWriteLock(
    'being-written',
    async () => {
      await inner.writeNew(path, once(half));
      reads.clear();
      await store.settled();
      expect(reads.get(path) ?? 0).toBe(0);
      expect((await store.list()).some((s) => s.id === 'being-written')).toBe(false);
    },
    undefined,
    true,
  );
  // Its writer died before its record: the next store to open reads the file as it is.
  const later = createStore(disk, { flushDelay: 60_000 });
  await later.settled();
  expect((await later.list()).find((s) => s.id === 'being-written')?.size).toBe(half.length);
});
