// The search manifest's log (manifest-log.ts, manifest-cache.ts): an import's batch writes the bytes
// of its own sessions' entries, whatever the library's size; a line a crash cut off is skipped and
// the lines after it are read; two writers taking turns (two tabs, under the index's lock) each read
// what the other appended, through a fold of the log into manifest.json; a log left by another
// manifest.json is ignored.
import { expect, test } from 'vitest';
import { createMemoryDisk } from '../../../src/storage/memory-disk.ts';
import type { ByteChunks, Disk } from '../../../src/storage/types.ts';
import { createManifestCache } from '../../../src/worker/search/manifest-cache.ts';
import { MANIFEST_LOG, readManifest, writeManifest } from '../../../src/worker/search/manifest-log.ts';
import { emptyManifest, MANIFEST, type Manifest, type ManifestEntry } from '../../../src/worker/search/segments.ts';
import { openLibrary, plantedSession, plantWords } from './planted.ts';

const idOf = (n: number) => `c0ffee00-0000-7000-8000-${n.toString().padStart(12, '0')}`;
const words = plantWords(91, 8 * 80);
const sessionFile = (n: number) => new File([plantedSession(idOf(n), n % 28, words.slice(n * 8, n * 8 + 8)).text], `s${n}.jsonl`);

// Counts the bytes written to the manifest's files (manifest.json and its log), and read from them.
function countManifestBytes(disk: Disk) {
  let bytes = 0;
  let read = 0;
  const counted = async function* (chunks: ByteChunks) {
    for await (const c of chunks) {
      bytes += c.length;
      yield c;
    }
  };
  const isManifest = (path: string) => path === MANIFEST || path === MANIFEST_LOG;
  const writeNew = disk.writeNew.bind(disk);
  const append = disk.append.bind(disk);
  const readFile = disk.read.bind(disk);
  disk.read = async (path, start, end) => {
    const out = await readFile(path, start, end);
    if (isManifest(path)) read += out.length;
    return out;
  };
  disk.writeNew = (path, chunks, signal) => writeNew(path, isManifest(path) ? counted(chunks) : chunks, signal);
  disk.append = (path, data, signal) => {
    if (!isManifest(path)) return append(path, data, signal);
    if (data instanceof Uint8Array) bytes += data.length;
    return append(path, data instanceof Uint8Array ? data : counted(data), signal);
  };
  return () => ({ written: bytes, read });
}

// The manifest bytes written and read by a new worker's import of the same batch of 4 sessions into a library of `size` sessions.
async function batchBytes(size: number) {
  const lib = openLibrary();
  const library = await lib.api.importFiles({ files: Array.from({ length: size }, (_, i) => sessionFile(i)) });
  expect(library.items.every((x) => x.outcome === 'added')).toBe(true);
  // The batch by a new worker (as a page opened later): it has no copy of the manifest.
  const counts = countManifestBytes(lib.disk);
  const batch = await openLibrary(lib.disk).api.importFiles({ files: [70, 71, 72, 73].map(sessionFile) });
  expect(batch.items.map((x) => x.outcome)).toEqual(['added', 'added', 'added', 'added']);
  const bytes = counts();
  // Every session is in the manifest as a fresh reader finds it, and a new worker finds the batch's words.
  expect(Object.keys((await readManifest(lib.disk))!.sessions).length).toBe(size + 4);
  const fresh = openLibrary(lib.disk);
  expect((await fresh.api.search({ query: words[73 * 8], typing: false })).sessions.map((s) => s.id)).toEqual([idOf(73)]);
  return bytes;
}

test("an import's batch writes and reads the same manifest bytes in a library of 60 sessions as in one of 4", async () => {
  const small = await batchBytes(4);
  const large = await batchBytes(60);
  expect(small.written).toBeGreaterThan(0);
  expect(large).toEqual(small);
}, 60_000);

// A manifest entry of `title` (its records are not read here).
const entry = (id: string, title: string): ManifestEntry => ({
  meta: { id, title, cwd: '/p', created: 0, last: 0, size: 10, models: [], tools: [], flags: 0 } as never,
  ref: { seg: 'seg-1.bin', w: [0, 1], r: [1, 2], t: [2, 3], c: [0, 0] },
});
const titles = (m: Manifest | null) =>
  Object.fromEntries(
    Object.entries(m?.sessions ?? {})
      .map(([id, e]) => [id, e.meta.title])
      .sort(),
  );

// One turn of a writer under the index's lock: read, change, save, settle.
async function turn(cache: ReturnType<typeof createManifestCache>, change: (m: Manifest) => string[]) {
  const m = (await cache.read()) ?? emptyManifest();
  const ids = change(m);
  await cache.save(m, ids);
  await cache.settled(m);
  return m;
}
const put =
  (...ids: string[]) =>
  (m: Manifest) => {
    for (const id of ids) m.sessions[id] = entry(id, `${id} title`);
    return ids;
  };

test('a line a crash cut off is skipped: the entries before and after it are read, by a new reader and by one following the log', async () => {
  const disk = createMemoryDisk();
  const first = createManifestCache(disk);
  await turn(first, put('a'));
  await turn(first, put('b'));
  // A crash in the middle of an append: half a line at the log's end.
  await disk.append(MANIFEST_LOG, new TextEncoder().encode(`\n{"id":"c","e":{"meta":{"id":"c","ti`));
  expect(titles(await readManifest(disk))).toEqual({ a: 'a title', b: 'b title' });
  // A writer after the crash appends behind the cut line.
  const second = createManifestCache(disk);
  await turn(second, put('d'));
  // And an import's batch, added by a third without reading the manifest.
  await createManifestCache(disk).add([['e', entry('e', 'e title')]]);
  const want = { a: 'a title', b: 'b title', d: 'd title', e: 'e title' };
  expect(titles(await readManifest(disk))).toEqual(want);
  expect(titles(await first.read())).toEqual(want);
  expect(titles(await createManifestCache(disk).read())).toEqual(want);
});

test('two writers taking turns each read what the other appended, removed or folded into manifest.json', async () => {
  const disk = createMemoryDisk();
  // Folded once the log passes 700 bytes: a few turns each.
  const one = createManifestCache(disk, 700);
  const two = createManifestCache(disk, 700);
  const want: Record<string, string> = {};
  let folds = 0;
  let lastFile = '';
  for (let i = 0; i < 12; i++) {
    const [writer, other] = i % 2 ? [two, one] : [one, two];
    const id = `s${i}`;
    if (i % 4 === 1) {
      // An import's batch: added without reading the manifest.
      await writer.add([[id, entry(id, `${id} added`)]]);
      want[id] = `${id} added`;
    } else
      await turn(writer, (m) => {
        // What the other wrote last turn is there.
        if (i > 0) expect(m.sessions[`s${i - 1}`]?.meta.title ?? null).toBe(want[`s${i - 1}`] ?? null);
        m.sessions[id] = entry(id, `${id} by ${i % 2 ? 'two' : 'one'}`);
        want[id] = m.sessions[id].meta.title;
        if (i % 4 === 3) {
          // And one session leaves the index.
          delete m.sessions[`s${i - 2}`];
          delete want[`s${i - 2}`];
          return [id, `s${i - 2}`];
        }
        return [id];
      });
    const file = new TextDecoder().decode((await disk.read(MANIFEST)).subarray(0, 40));
    if (file !== lastFile) folds++;
    lastFile = file;
    const sorted = Object.fromEntries(Object.entries(want).sort());
    expect(titles(await readManifest(disk))).toEqual(sorted);
    expect(titles(await other.read())).toEqual(sorted);
  }
  // The log was folded into manifest.json more than once on the way (the first turn wrote it).
  expect(folds).toBeGreaterThan(2);
});

test("a log that continues another manifest.json (a crash between a fold's two writes) is ignored, then started again", async () => {
  const disk = createMemoryDisk();
  const cache = createManifestCache(disk);
  await turn(cache, put('a'));
  await turn(cache, put('b'));
  const oldLog = await disk.read(MANIFEST_LOG);
  // A fold wrote manifest.json (without b) and crashed before removing the old log.
  const m = emptyManifest();
  m.sessions.a = entry('a', 'a title');
  await writeManifest(disk, m);
  await disk.writeNew(
    MANIFEST_LOG,
    (async function* () {
      yield oldLog;
    })(),
  );
  expect(titles(await readManifest(disk))).toEqual({ a: 'a title' });
  const next = createManifestCache(disk);
  await turn(next, put('c'));
  expect(titles(await readManifest(disk))).toEqual({ a: 'a title', c: 'c title' });
  expect(titles(await cache.read())).toEqual({ a: 'a title', c: 'c title' });
});

test("an import's batches let the log grow past the file; the next sync's save folds it", async () => {
  const disk = createMemoryDisk();
  const cache = createManifestCache(disk, 700);
  await turn(cache, put('a'));
  const file = await disk.read(MANIFEST);
  // Batches past the fold limit (700 bytes) but not past four times it: no fold on the import's path.
  for (const id of ['b', 'c', 'd', 'e']) await cache.add([[id, entry(id, `${id} title`)]]);
  expect((await disk.stat(MANIFEST_LOG))!.size).toBeGreaterThan(700);
  expect(await disk.read(MANIFEST)).toEqual(file);
  // A sync that changed nothing folds it: everything in manifest.json, no log.
  const m = (await cache.read())!;
  expect(cache.outgrown()).toBe(true);
  await cache.save(m, []);
  expect(await disk.stat(MANIFEST_LOG)).toBeNull();
  const folded = JSON.parse(new TextDecoder().decode(await disk.read(MANIFEST))) as Manifest;
  expect(Object.keys(folded.sessions).sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
  expect(titles(await readManifest(disk))).toEqual(titles(folded));
});
