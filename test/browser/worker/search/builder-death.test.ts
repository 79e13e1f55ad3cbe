// In Chromium: the search index's builder is a real Web Worker that ends itself mid-way through an
// import (close(): no error event, no message). The import call still returns, every session it
// stored in the index's manifest: the builder's life lock came free, so the parts it never gave were
// built in place.
import { expect, test } from 'vitest';
import { createMemoryDisk } from '../../../../src/storage/memory-disk.ts';
import { createStore } from '../../../../src/storage/store.ts';
import { createApi } from '../../../../src/worker/api.ts';
import { readManifest } from '../../../../src/worker/search/manifest-log.ts';
import { builderWorker } from '../../../../src/worker/search/part-workers.ts';
import { remoteParts } from '../../../../src/worker/search/part-remote.ts';
import { plantedSession, plantWords } from '../../../worker/search/planted.ts';

test('a builder worker that closes itself mid-way: the import returns with every stored session in the index', async () => {
  // The builder as the app makes it, its answers and its end counted on the way.
  let spawned = 0;
  let answered = 0;
  let ended: Error | null = null;
  let watched: () => void = () => undefined;
  const isWatched = new Promise<void>((r) => (watched = r));
  const parts = remoteParts(() => {
    spawned++;
    const w = builderWorker((name) => new Worker(new URL('./dying-builder.worker.ts', import.meta.url), { type: 'module', name }));
    return {
      ...w,
      listen: (onAnswer, onFailure) =>
        w.listen(
          (a) => {
            if ('life' in a) watched();
            if ('part' in a) answered++;
            onAnswer(a);
          },
          (e) => {
            ended = e;
            onFailure(e);
          },
        ),
    };
  });
  // Started, and watched, before the import (a job opened and dropped starts it).
  parts.open().drop();
  await isWatched;
  const words = plantWords(43, 10 * 8);
  const ids = Array.from({ length: 10 }, (_, i) => `b0170000-0000-7000-8000-0000000001${10 + i}`);
  const sessions = ids.map((id, i) => plantedSession(id, i, words.slice(i * 8, i * 8 + 8)));
  const files = [
    ...sessions.map((s, i) => new File([s.text], `s${i}.jsonl`)),
    new File([sessions[3].text], 'copy-of-s3.jsonl'),
    new File(['not a session\n'], 'notes.jsonl'),
  ];
  const disk = createMemoryDisk();
  const store = createStore(disk, { flushDelay: 0 });
  const api = createApi({ store, now: () => new Date('2026-03-04T05:06:07.000Z'), randomId: () => '0000beef', searchDisk: disk, searchParts: parts });
  const report = await api.importFiles({ files });
  expect(report.items.map((i) => i.outcome)).toEqual([...Array(10).fill('added'), 'unchanged', 'rejected']);
  expect(spawned).toBe(1);
  // It gave some parts, then ended mid-way; its end was heard.
  expect(answered).toBeGreaterThanOrEqual(3);
  expect(answered).toBeLessThan(10);
  expect(ended).toEqual(new Error("The search index's builder ended"));
  const manifest = (await readManifest(disk))!;
  expect(Object.keys(manifest.sessions).sort()).toEqual([...ids].sort());
  const p = sessions[9].plants[0];
  const found = await api.search({ query: p.word, typing: false });
  expect(found.sessions.map((s) => s.hits.map((h) => `${s.id} ${h.entryId}`))).toEqual([[`${p.session} ${p.entry}`]]);
}, 30_000);
