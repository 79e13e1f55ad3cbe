// The search API's syncSearchIndex (what the search box calls on focus): once the index holds
// sessions, the worker answers a few throwaway queries, once; never on an empty index, never again.
import { expect, test } from 'vitest';
import type { WorkerEnv } from '../../../src/worker/env.ts';
import { createSearchApi } from '../../../src/worker/search/api.ts';
import type { LibraryIndex } from '../../../src/worker/search/library-index.ts';

function fakeIndex() {
  const state = { size: 0, syncs: 0, queries: [] as string[] };
  const index = {
    sync: async () => {
      state.syncs++;
    },
    size: () => state.size,
    search: async (q: string) => {
      state.queries.push(q);
      return { sessions: [], total: 0 };
    },
  } as unknown as LibraryIndex;
  return { index, state };
}

test('the first sync that finds sessions warms the query paths once; an empty index is not queried', async () => {
  const { index, state } = fakeIndex();
  const api = createSearchApi(index, {} as WorkerEnv);
  expect(await api.syncSearchIndex({})).toEqual({ sessions: 0 });
  expect(state.queries).toEqual([]);
  state.size = 3;
  expect(await api.syncSearchIndex({})).toEqual({ sessions: 3 });
  const warmUp = [...state.queries];
  expect(warmUp.length).toBeGreaterThan(0);
  await api.syncSearchIndex({});
  expect(state.queries).toEqual(warmUp);
  expect(state.syncs).toBe(3);
});
