// The index record says which agent wrote a session (for its resume command); an index written
// before it did (version 1) is rebuilt from the files, so every record says it.
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { once } from '../../src/storage/chunks.ts';
import { decodeIndex, encodeIndex, INDEX_FORMAT } from '../../src/storage/index-file.ts';
import { INDEX_PATH } from '../../src/storage/names.ts';
import { createStore } from '../../src/storage/store.ts';
import { bytes, memoryStore } from './helpers.ts';

const fixture = (path: string) => new Uint8Array(readFileSync(new URL(`../../fixtures/${path}`, import.meta.url)));

test('records carry the writer; a version-1 index (no writer) is rebuilt with it; an unknown writer is refused', async () => {
  const { disk, store } = memoryStore();
  await store.create('pi', once(fixture('real/xiayongchao-pi-demo-branch.jsonl')));
  await store.create('omp', once(fixture('omp/omp-shapes.jsonl')));
  await store.create('bare', once(fixture('real/pi-messenger-crew-planner-header-only.jsonl')));
  const agents = async (s = store) => Object.fromEntries((await s.list()).map((x) => [x.id, x.agent]));
  expect(await agents()).toEqual({ pi: 'pi', omp: 'omp', bare: undefined });

  const old = (await store.list()).map(({ agent: _, ...rest }) => rest);
  disk.files.set(INDEX_PATH, { bytes: bytes(JSON.stringify({ format: INDEX_FORMAT, version: 1, sessions: old })), modified: 5 });
  expect(await agents(createStore(disk, { flushDelay: 0 }))).toEqual({ pi: 'pi', omp: 'omp', bare: undefined });

  const list = await store.list();
  expect(decodeIndex(encodeIndex(list))).toHaveLength(3);
  expect(decodeIndex(encodeIndex([{ ...list[0], agent: 'claude' as 'pi' }]))).toBeNull();
});
