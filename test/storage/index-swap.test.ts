// index.json while a flush compacts its log into a new one: OPFS shows no file for a moment while
// it is swapped in (measured in Chromium: a drop of 20 sessions into 2,000 read every file again
// once in a few calls). A listing in that moment must wait for the writer, not rebuild the index.
import { expect, test } from 'vitest';
import { once } from '../../src/storage/chunks.ts';
import { createMemoryDisk } from '../../src/storage/memory-disk.ts';
import { INDEX_PATH, SESSIONS_DIR } from '../../src/storage/names.ts';
import { createStore } from '../../src/storage/store.ts';
import type { Disk } from '../../src/storage/types.ts';
import { bytes, sessionText } from './helpers.ts';

/** A memory disk whose next write of index.json removes the old file, then waits for `close()` before writing the new one. */
function diskWithGap() {
  const inner = createMemoryDisk();
  let armed = false;
  let opened: () => void = () => undefined;
  let close: () => void = () => undefined;
  const gapOpen = new Promise<void>((resolve) => (opened = resolve));
  const gapClosed = new Promise<void>((resolve) => (close = resolve));
  // Reads of session files (a rebuild reads every one).
  const sessionReads = { n: 0 };
  let missingSeen: () => void = () => undefined;
  const sawMissing = new Promise<void>((resolve) => (missingSeen = resolve));
  const disk: Disk = {
    ...inner,
    async writeNew(path, chunks, signal) {
      if (path === INDEX_PATH && armed) {
        armed = false;
        inner.files.delete(INDEX_PATH);
        opened();
        await gapClosed;
      }
      return inner.writeNew(path, chunks, signal);
    },
    async stat(path) {
      const s = await inner.stat(path);
      if (path === INDEX_PATH && s === null) missingSeen();
      return s;
    },
    async read(path, start, end) {
      if (path.startsWith(`${SESSIONS_DIR}/`)) sessionReads.n++;
      return inner.read(path, start, end);
    },
    async blob(path) {
      if (path.startsWith(`${SESSIONS_DIR}/`)) sessionReads.n++;
      return inner.blob(path);
    },
  };
  return { disk, inner, sessionReads, arm: () => (armed = true), gapOpen, sawMissing, close: () => close() };
}

test('a listing while a flush swaps index.json in waits for it and reads no session file', async () => {
  const { disk, sessionReads, arm, gapOpen, sawMissing, close } = diskWithGap();
  // Any record makes the log outgrow this: every flush compacts, swapping index.json in.
  const store = createStore(disk, { flushDelay: 60_000, compactLog: 1 });
  for (const id of ['a', 'b', 'c']) await store.create(id, once(bytes(sessionText(id))));
  await store.flush();
  await store.settled();
  await store.create('d', once(bytes(sessionText('d'))));
  sessionReads.n = 0;

  arm();
  const flushing = store.flush();
  await gapOpen;
  // The listing finds no index.json on disk (the swap's moment), then…
  const listing = store.list();
  await sawMissing;
  close();
  const [list] = await Promise.all([listing, flushing]);
  // …gets every session from the index the flush wrote, without reading any session file.
  expect(list.map((s) => s.id).sort()).toEqual(['a', 'b', 'c', 'd']);
  expect(sessionReads.n).toBe(0);
});

test('control: an index.json that is really gone is still rebuilt from the files', async () => {
  const { disk, inner, sessionReads } = diskWithGap();
  const store = createStore(disk, { flushDelay: 60_000 });
  for (const id of ['a', 'b']) await store.create(id, once(bytes(sessionText(id))));
  await store.flush();
  await store.settled();
  sessionReads.n = 0;
  inner.files.delete(INDEX_PATH);
  expect((await store.list()).map((s) => s.id).sort()).toEqual(['a', 'b']);
  expect(sessionReads.n).toBeGreaterThan(0);
  expect(inner.files.has(INDEX_PATH)).toBe(true);
});
