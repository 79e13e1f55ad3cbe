// One import call of many sessions (new ones, a copy, a shorter copy, a diverged one, a file that is
// no session, another agent's) whose parts a builder on the far side of a real message channel
// makes, until it ends mid-way without a word (its port closed): the import call returns, and every
// session it stored is in the index's manifest when it does (the parts the builder never gave are
// built in place from the files), found where its words were planted.
import { readFileSync } from 'node:fs';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterEach, expect, test } from 'vitest';
import { createMemoryDisk } from '../../../src/storage/memory-disk.ts';
import { createStore } from '../../../src/storage/store.ts';
import { createApi } from '../../../src/worker/api.ts';
import { answerPartJobs } from '../../../src/worker/search/part-answer.ts';
import { type PartAnswer, type PartRequest, packedBuffers } from '../../../src/worker/search/part-jobs.ts';
import { remoteParts } from '../../../src/worker/search/part-remote.ts';
import { type Plant, plantedSession, plantWords } from './planted.ts';

const ports: MessagePort[] = [];
afterEach(() => {
  for (const p of ports.splice(0)) p.close();
});

/** A builder on a real channel that takes `lives` requests, then ends (its port closed) before answering the last. */
function dyingBuilder(lives: number) {
  const { port1, port2 } = new MessageChannel();
  ports.push(port1, port2);
  let taken = 0;
  let watched: () => void = () => undefined;
  const isWatched = new Promise<void>((r) => (watched = r));
  answerPartJobs(
    {
      addEventListener: (type, fn) => {
        if (type !== 'message') return;
        port2.on('message', (data: PartRequest) => {
          if (taken === lives) return;
          taken++;
          fn({ data } as MessageEvent<PartRequest>);
          if (taken === lives) port2.close();
        });
      },
      postMessage: (answer, transfer) => port2.postMessage(answer, transfer as never),
    },
    // Watched by the channel's end (a browser's builder: by its life lock).
    Promise.resolve('channel'),
  );
  let answered = 0;
  const parts = remoteParts(() => ({
    post: (request) => port1.postMessage(request, ('docs' in request ? packedBuffers(request.docs) : []) as never),
    listen(onAnswer, onFailure) {
      port1.on('message', (a: PartAnswer) => {
        if ('life' in a) watched();
        if ('part' in a) answered++;
        onAnswer(a);
      });
      // The channel's end, as a browser's builder's life lock coming free.
      port1.on('close', () => onFailure(new Error('the builder ended')));
    },
    stop: () => port1.close(),
  }));
  return { parts, isWatched, taken: () => taken, answered: () => answered };
}

test('a builder that ends mid-way through an import of many kinds of files: the import returns with every stored session in the index', async () => {
  const words = plantWords(41, 12 * 8);
  const ids = Array.from({ length: 10 }, (_, i) => `b0170000-0000-7000-8000-0000000000${10 + i}`);
  const sessions = ids.map((id, i) => plantedSession(id, i, words.slice(i * 8, i * 8 + 8)));
  const file = (name: string, text: string | Uint8Array) => new File([text as BlobPart], name);
  const codex = readFileSync(new URL('../../../fixtures/other-agents/codex/Fegor-Basic-Rootkit-v0.40.0.jsonl', import.meta.url));
  const files = [
    ...sessions.slice(0, 5).map((s, i) => file(`s${i}.jsonl`, s.text)),
    file('copy-of-s0.jsonl', sessions[0].text),
    file('start-of-s1.jsonl', `${sessions[1].text.split('\n').slice(0, 3).join('\n')}\n`),
    file('diverged-s2.jsonl', plantedSession(ids[2], 11, words.slice(88, 96)).text),
    file('notes.jsonl', 'not a session\n'),
    file('rollout.jsonl', codex),
    ...sessions.slice(5).map((s, i) => file(`s${i + 5}.jsonl`, s.text)),
  ];
  const disk = createMemoryDisk();
  const store = createStore(disk, { flushDelay: 0 });
  const builder = dyingBuilder(4);
  // Started, and watched, before the import (a job opened and dropped starts it).
  builder.parts.open().drop();
  await builder.isWatched;
  const api = createApi({ store, now: () => new Date('2026-03-04T05:06:07.000Z'), randomId: () => '0000beef', searchDisk: disk, searchParts: builder.parts });

  const report = await api.importFiles({ files });
  expect(report.items.map((i) => i.outcome)).toEqual([
    ...['added', 'added', 'added', 'added', 'added'],
    ...['unchanged', 'kept-newer', 'variant', 'rejected', 'added'],
    ...['added', 'added', 'added', 'added', 'added'],
  ]);
  // The builder took four sessions' requests and answered fewer.
  expect(builder.taken()).toBe(4);
  expect(builder.answered()).toBeLessThan(4);
  // Every stored session is in the manifest the import wrote (before any search brings the index to the files).
  const manifest = JSON.parse(new TextDecoder().decode(disk.files.get('search/manifest.json')!.bytes));
  const stored = (await store.list()).map((s) => s.id).sort();
  expect(stored.length).toBe(12);
  expect(Object.keys(manifest.sessions).sort()).toEqual(stored);
  const where = (r: { sessions: Array<{ id: string; hits: Array<{ entryId: string }> }> }) =>
    r.sessions.flatMap((s) => s.hits.map((h) => `${s.id} ${h.entryId}`));
  const plants: Plant[] = sessions.flatMap((s) => s.plants);
  for (const p of plants) expect(where(await api.search({ query: p.word, typing: false }))).toEqual([`${p.session} ${p.entry}`]);
});
