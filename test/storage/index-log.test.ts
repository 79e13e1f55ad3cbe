// The library index's log (index-log.ts, store-index.ts): a flush writes the records it flushes and
// leaves index.json alone, whatever the library's size; another store follows the log; a line a
// crash cut off, or a log that continues another index.json, loses nothing the files say.
import { expect, test } from 'vitest';
import { once } from '../../src/storage/chunks.ts';
import { createMemoryDisk } from '../../src/storage/memory-disk.ts';
import { INDEX_LOG_PATH, INDEX_PATH } from '../../src/storage/names.ts';
import { createStore } from '../../src/storage/store.ts';
import { bytes, countingDisk, sessionText } from './helpers.ts';

/** A disk whose index.json lists session a, and whose log adds b. */
async function aInIndexBInLog() {
  const disk = createMemoryDisk();
  const store = createStore(disk, { flushDelay: 60_000 });
  await store.create('a', once(bytes(sessionText('a'))));
  await store.flush();
  await store.settled();
  await store.create('b', once(bytes(sessionText('b'))));
  await store.flush();
  return disk;
}

const ids = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `s${(from + i).toString().padStart(4, '0')}`);

test('a flush writes its own records to the log, not the whole index: under a kilobyte into 40 or 200 sessions', async () => {
  for (const size of [40, 200]) {
    const { disk, inner, written } = countingDisk();
    const store = createStore(disk, { flushDelay: 60_000 });
    for (const id of ids(size)) await store.create(id, once(bytes(sessionText(id))));
    await store.flush();
    await store.settled();
    const indexBefore = disk.stat(INDEX_PATH);
    written.clear();
    await store.create('new-one', once(bytes(sessionText('new-one'))));
    await store.flush();
    // index.json untouched; the log got one record (well under the size of the index).
    expect(written.has(INDEX_PATH)).toBe(false);
    expect(await disk.stat(INDEX_PATH)).toEqual(await indexBefore);
    const total = [...written.values()].reduce((n, x) => n + x, 0);
    expect(written.get(INDEX_LOG_PATH)).toBeGreaterThan(0);
    // The session's own bytes, and its record: not the index of 40 (25 KB) or 200 sessions.
    expect(total - bytes(sessionText('new-one')).length).toBeLessThan(1024);
    const indexBytes = (inner.files.get(INDEX_PATH)?.bytes.length ?? 0) + (inner.files.get(INDEX_LOG_PATH)?.bytes.length ?? 0);
    expect(indexBytes).toBeGreaterThan(15 * 1024);
    expect((await store.list()).length).toBe(size + 1);
  }
});

test('another store follows the log as it grows: new, changed and deleted sessions', async () => {
  const disk = createMemoryDisk();
  const a = createStore(disk, { flushDelay: 60_000 });
  for (const id of ['x', 'y', 'z']) await a.create(id, once(bytes(sessionText(id))));
  await a.flush();
  await a.settled();
  const b = createStore(disk, { flushDelay: 60_000 });
  expect((await b.list()).map((s) => s.id).sort()).toEqual(['x', 'y', 'z']);

  await a.create('w', once(bytes(sessionText('w'))));
  await a.appendLines('x', bytes(sessionText('x', 3).split('\n').slice(5).join('\n')));
  await a.trash('y');
  await a.flush();
  const seen = await b.list();
  expect(seen.map((s) => s.id).sort()).toEqual(['w', 'x', 'z']);
  expect(seen.find((s) => s.id === 'x')?.entryCount).toBe(6);
  expect(seen.find((s) => s.id === 'x')?.size).toBe(disk.files.get('sessions/x.jsonl')?.bytes.length);
});

test('the log is compacted into index.json once it outgrows its limit, and the listing is unchanged', async () => {
  const disk = createMemoryDisk();
  const store = createStore(disk, { flushDelay: 60_000, compactLog: 4096 });
  for (const id of ids(3)) await store.create(id, once(bytes(sessionText(id))));
  await store.flush();
  await store.settled();
  for (const id of ids(12, 3)) {
    await store.create(id, once(bytes(sessionText(id))));
    await store.flush();
    // Never past the limit by more than one flush's records.
    expect(disk.files.get(INDEX_LOG_PATH)?.bytes.length ?? 0).toBeLessThanOrEqual(4096);
  }
  const file = JSON.parse(new TextDecoder().decode(disk.files.get(INDEX_PATH)!.bytes)) as { sessions: unknown[] };
  // Compacted at least once: index.json holds more than the first three.
  expect(file.sessions.length).toBeGreaterThan(3);
  const reopened = createStore(disk, { flushDelay: 60_000 });
  expect((await reopened.list()).map((s) => s.id).sort()).toEqual(ids(15));
});

test('a log line a crash cut off is skipped; the records after it are read', async () => {
  const disk = await aInIndexBInLog();
  // A crash in the middle of an append: half a record at the log's end.
  const log = disk.files.get(INDEX_LOG_PATH)!;
  const text = new TextDecoder().decode(log.bytes);
  const torn = text.slice(text.indexOf('{"id":"b"'), text.indexOf('{"id":"b"') + 40);
  await disk.append(INDEX_LOG_PATH, bytes(`\n${torn}`));
  const writer = createStore(disk, { flushDelay: 60_000 });
  await writer.create('c', once(bytes(sessionText('c'))));
  await writer.flush();
  const reader = createStore(disk, { flushDelay: 60_000 });
  expect((await reader.list()).map((s) => s.id).sort()).toEqual(['a', 'b', 'c']);
});

test('a log that continues another index.json (rewritten by a build that keeps no log) is ignored, and the files fill in', async () => {
  const disk = await aInIndexBInLog();
  // index.json written again without naming the log (what a build without one writes), listing only a.
  const file = JSON.parse(new TextDecoder().decode(disk.files.get(INDEX_PATH)!.bytes)) as { log?: string; sessions: Array<{ id: string }> };
  delete file.log;
  file.sessions = file.sessions.filter((s) => s.id === 'a');
  disk.files.set(INDEX_PATH, { bytes: bytes(JSON.stringify(file)), modified: 7 });
  await disk.remove('sessions/b.jsonl');
  const reopened = createStore(disk, { flushDelay: 60_000 });
  await reopened.settled();
  // b's record in the old log does not come back (its file is gone); a is listed from index.json.
  expect((await reopened.list()).map((s) => s.id)).toEqual(['a']);
});

test('two stores appending to one session and flushing in the other order: the index keeps the record of the last write', async () => {
  const disk = createMemoryDisk();
  const a = createStore(disk, { flushDelay: 60_000 });
  await a.create('x', once(bytes(sessionText('x'))));
  await a.flush();
  await a.settled();
  const b = createStore(disk, { flushDelay: 60_000 });
  await b.settled();
  const more = (from: number, to: number) =>
    bytes(
      sessionText('x', to)
        .split('\n')
        .slice(1 + 2 * from, 1 + 2 * to)
        .join('\n') + '\n',
    );
  // a appends, then b appends after it; b's record reaches the index first, a's (older) second.
  await a.appendLines('x', more(2, 3));
  await b.appendLines('x', more(3, 4));
  await b.flush();
  await a.flush();
  const size = disk.files.get('sessions/x.jsonl')!.bytes.length;
  for (const store of [a, b, createStore(disk, { flushDelay: 60_000 })]) {
    const x = (await store.list()).find((s) => s.id === 'x');
    expect(x?.size).toBe(size);
    expect(x?.entryCount).toBe(8);
  }
});
