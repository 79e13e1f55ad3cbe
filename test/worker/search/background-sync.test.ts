// The search index's background sync (a write's follow-up, due a moment after it) beside an import:
// the sessions an import writes are indexed from the bytes it writes, and a background sync that
// falls due before the import has placed them leaves them to it instead of reading their files again.
import { afterEach, expect, test, vi } from 'vitest';
import { createMemoryDisk } from '../../../src/storage/memory-disk.ts';
import { createStore } from '../../../src/storage/store.ts';
import { createApi } from '../../../src/worker/api.ts';
import { plantedSession, plantWords } from './planted.ts';

afterEach(() => {
  vi.useRealTimers();
});

const ids = ['bac65000-0000-7000-8000-000000000001', 'bac65000-0000-7000-8000-000000000002'];

test("a background sync that falls due while an import is finishing leaves the import's new session to it: its file is not read again, and its words are found", async () => {
  // Only the timers are driven by the test (the background sync's delay); nothing waits for time.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  const words = plantWords(49, 16);
  const first = plantedSession(ids[0], 0, words.slice(0, 8));
  const second = plantedSession(ids[1], 1, words.slice(8));
  const disk = createMemoryDisk();
  const store = createStore(disk, { flushDelay: 0 });
  const reads: string[] = [];
  const readFile = store.readFile.bind(store);
  store.readFile = (id) => {
    reads.push(id);
    return readFile(id);
  };
  const api = createApi({ store, now: () => new Date('2026-03-04T05:06:07.000Z'), randomId: () => '0000beef', searchDisk: disk });
  // The first import's end schedules a background sync.
  await api.importFiles({ files: [new File([first.text], 'first.jsonl')] });
  // The second import has written its session (the store lists it) and flushes the store before it
  // places the session's part in the index: the background sync falls due there, and whatever it
  // starts gets its turn before the import goes on.
  const flush = store.flush.bind(store);
  let fell = 0;
  store.flush = async () => {
    if ((await store.list()).some((s) => s.id === ids[1]) && fell === 0) {
      fell = vi.getTimerCount();
      await vi.runOnlyPendingTimersAsync();
      for (let i = 0; i < 50; i++) await Promise.resolve();
    }
    return flush();
  };
  const report = await api.importFiles({ files: [new File([second.text], 'second.jsonl')] });
  expect(report.items[0].outcome).toBe('added');
  expect(fell).toBeGreaterThan(0);
  store.flush = flush;
  // Once the import has ended, the background sync that its end scheduled finds nothing left to read.
  await vi.runOnlyPendingTimersAsync();
  vi.useRealTimers();
  for (const p of [...first.plants, ...second.plants]) {
    const found = await api.search({ query: p.word, typing: false });
    expect(found.sessions.flatMap((s) => s.hits.map((h) => `${s.id} ${h.entryId}`))).toEqual([`${p.session} ${p.entry}`]);
  }
  expect(reads).toEqual([]);
});
