/// <reference lib="webworker" />
// A test's writer that stops mid-batch (test/browser/storage/creation-log.test.ts): over the real store and
// OPFS disk, it creates whole sessions, then starts one more and never finishes it, and says so;
// the test then kills it, as a closed tab or a crash would. `ahead`: sessions whose locks it takes
// ahead of the one it does not finish (their files opened, as a folder import does: write-locks.ts).
import { createStore } from '../../../src/storage/store.ts';
import { openOpfsDisk } from '../../../src/storage/opfs-disk.ts';

declare const self: DedicatedWorkerGlobalScope;

self.onmessage = async (
  e: MessageEvent<{ root: string; whole: Array<{ id: string; text: string }>; partial: { id: string; text: string }; ahead?: string[] }>,
) => {
  const { root, whole, partial, ahead = [] } = e.data;
  const store = createStore(await openOpfsDisk(root), { flushDelay: 0 });
  const encoder = new TextEncoder();
  for (const s of whole) {
    await store.withWriteLock(s.id, async () => {
      if ((await store.family(s.id)).length) throw new Error(`${s.id} is stored already`);
      // As an import's batch does: no flush between files (the batch's creation log stays open).
      await store.create(
        s.id,
        (async function* () {
          yield encoder.encode(s.text);
        })(),
        { checked: true },
      );
    });
  }
  for (const id of ahead) store.reserve?.(id);
  const bytes = encoder.encode(partial.text);
  const half = Math.floor(bytes.length / 2);
  await store.withWriteLock(
    partial.id,
    () =>
      store.create(
        partial.id,
        (async function* () {
          yield bytes.subarray(0, half);
          // The first half is on disk: tell the test, then wait for the kill (the next chunk never comes).
          self.postMessage('stalled');
          await new Promise(() => undefined);
        })(),
        { checked: true },
      ),
    undefined,
    true,
  );
};
