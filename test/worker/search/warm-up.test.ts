// What the search box's focus does before the first key (syncSearchIndex): once the index holds
// sessions, the worker reads it as a first query would, so the first keystrokes find what they need
// in memory. Observed on the real index over the memory disk, through what is read of its segments.
import { expect, test } from 'vitest';
import { createMemoryDisk } from '../../../src/storage/memory-disk.ts';
import { createStore } from '../../../src/storage/store.ts';
import type { Disk } from '../../../src/storage/types.ts';
import { createApi } from '../../../src/worker/api.ts';
import { noiseSessions, plantedSession, plantWords } from './planted.ts';

/** The memory disk, with every read of a search segment written down (its path). */
function watchedDisk() {
  const disk = createMemoryDisk();
  const segmentReads: string[] = [];
  const isSegment = (path: string) => path.startsWith('search/') && path.includes('/seg-');
  const watched: Disk = {
    ...disk,
    async blob(path) {
      const b = await disk.blob(path);
      if (!isSegment(path)) return b;
      return new Proxy(b, {
        get(target, key) {
          if (key === 'slice')
            return (...a: Parameters<Blob['slice']>) => {
              segmentReads.push(path);
              return target.slice(...a);
            };
          const v = Reflect.get(target, key);
          return typeof v === 'function' ? v.bind(target) : v;
        },
      });
    },
    async openReader(path) {
      const reader = await disk.openReader!(path);
      if (!isSegment(path)) return reader;
      return {
        size: reader.size,
        read: (start, end) => {
          segmentReads.push(path);
          return reader.read(start, end);
        },
        close: () => reader.close(),
      };
    },
  };
  return { disk, watched, segmentReads };
}

function worker(disk: Disk) {
  let n = 0;
  return createApi({
    store: createStore(disk, { flushDelay: 0 }),
    now: () => new Date('2026-03-04T05:06:07.000Z'),
    randomId: () => (++n).toString(16).padStart(8, '0'),
    searchDisk: disk,
    searchReaderIdleMs: 20,
  });
}

function sessions(count: number): File[] {
  const words = plantWords(7, count * 8);
  const files = Array.from({ length: count }, (_, i) => {
    const id = `0a4d0000-0000-7000-8000-00000000000${i}`;
    return new File([plantedSession(id, i, words.slice(i * 8, i * 8 + 8)).text], `s${i}.jsonl`);
  });
  return [...files, ...noiseSessions(3).map((x) => new File([x.text], x.name))];
}

test("the focus of a fresh worker on a library with sessions reads the index's segments before any key, and the first keystroke finds them read", async () => {
  const { disk, watched, segmentReads } = watchedDisk();
  const files = sessions(5);
  await worker(disk).importFiles({ files });

  // A new worker (a reload) over the same files: the focus brings its index up and reads it.
  const api = worker(watched);
  expect(await api.syncSearchIndex({})).toEqual({ sessions: files.length });
  const afterFocus = segmentReads.length;
  expect(afterFocus).toBeGreaterThan(0);

  // A keystroke the warm-up stands for ("th", its first screen): answered from what the focus read.
  const first = await api.search({ query: 'th', limit: 8 });
  expect(first.sessions.length).toBeGreaterThan(0);
  expect(segmentReads.length).toBe(afterFocus);
  // The same answer as a worker that never had the focus.
  expect(await worker(disk).search({ query: 'th', limit: 8 })).toEqual(first);

  // A second focus, nothing changed: nothing read again.
  await api.syncSearchIndex({});
  expect(segmentReads.length).toBe(afterFocus);
});

test('the focus on an empty library reads nothing; the first focus after sessions arrive reads the index', async () => {
  const { watched, segmentReads } = watchedDisk();
  const api = worker(watched);
  expect(await api.syncSearchIndex({})).toEqual({ sessions: 0 });
  expect(segmentReads).toEqual([]);

  const files = sessions(3);
  await api.importFiles({ files });
  const afterImport = segmentReads.length;
  expect(await api.syncSearchIndex({})).toEqual({ sessions: files.length });
  expect(segmentReads.length).toBeGreaterThan(afterImport);
});
