// A session's family (variants.ts): the stored session, then its variants, found by the lookup the
// store keeps with its view of the index, which follows every record made after it (a variant made,
// one trashed, one whose file went away behind the index) as the files show them.
import { expect, test } from 'vitest';
import { once } from '../../src/storage/chunks.ts';
import { createMemoryDisk } from '../../src/storage/memory-disk.ts';
import { sessionPath } from '../../src/storage/names.ts';
import { createStore } from '../../src/storage/store.ts';
import { bytes, sessionText } from './helpers.ts';

const write = (store: ReturnType<typeof createStore>, id: string, variantOf?: string) =>
  store.create(id, once(bytes(sessionText(variantOf ?? id, 2, { prefix: id }))), variantOf ? { variantOf } : {});
const ids = async (store: ReturnType<typeof createStore>) => (await store.family('s1')).map((s) => s.id);

test("a family's variants are found past a gap, and follow the records made after the first look", async () => {
  const disk = createMemoryDisk();
  const store = createStore(disk, { flushDelay: 0 });
  await write(store, 's1');
  await write(store, 'other');
  for (const n of [2, 3, 4]) await write(store, `s1~${n}`, 's1');
  expect(await ids(store)).toEqual(['s1', 's1~2', 's1~3', 's1~4']);
  // ~2 trashed: ~3 and ~4 lie past the gap, found from the index alone (files are looked for from ~2 on).
  await store.trash('s1~2');
  expect(await ids(store)).toEqual(['s1', 's1~3', 's1~4']);
  await write(store, 's1~5', 's1');
  expect(await ids(store)).toEqual(['s1', 's1~3', 's1~4', 's1~5']);
  // Another store on the same disk (another tab) sees the same family once the records are flushed.
  await store.flush();
  expect(await ids(createStore(disk, { flushDelay: 0 }))).toEqual(['s1', 's1~3', 's1~4', 's1~5']);
  // A variant's file gone behind the index is not in the family.
  await disk.remove(sessionPath('s1~4'));
  expect(await ids(store)).toEqual(['s1', 's1~3', 's1~5']);
  expect(await store.family('other')).toHaveLength(1);
});
