// A session's part rebuilt from its file (a sync's rebuild) reads the file in chunks: lines that
// span many chunks, with multi-byte characters cut between chunks, give the part that the whole
// text split at "\n" gives.
import { expect, test } from 'vitest';
import { once } from '../../../src/storage/chunks.ts';
import { createMemoryDisk } from '../../../src/storage/memory-disk.ts';
import { createStore } from '../../../src/storage/store.ts';
import { createExtractor } from '../../../src/worker/search/extract.ts';
import { freshFromFile, titleOf } from '../../../src/worker/search/import-batch.ts';
import { buildPart } from '../../../src/worker/search/part.ts';

const T = '2026-02-03T04:05:06.000Z';
const id = 'f4e5f000-0000-7000-8000-000000000001';

test('a part rebuilt from a file whose lines span many chunks equals the one made from its whole text', async () => {
  // A user message of about 170 KB (many stream chunks) with two- and three-byte characters, then short lines.
  const long = 'été ☃ zebra-word '.repeat(10_000);
  const lines = [
    { type: 'session', version: 3, id, timestamp: T, cwd: '/home/dev/p' },
    { type: 'message', id: 'u1', parentId: null, timestamp: T, message: { role: 'user', content: long, timestamp: 1 } },
    {
      type: 'message',
      id: 'a1',
      parentId: 'u1',
      timestamp: T,
      message: { role: 'assistant', content: [{ type: 'text', text: 'short answer ☃' }], timestamp: 2 },
    },
    { type: 'message', id: 'u2', parentId: 'a1', timestamp: T, message: { role: 'user', content: `${'ünïcode '.repeat(10_000)}tail-word`, timestamp: 3 } },
  ];
  const text = `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
  const disk = createMemoryDisk();
  const store = createStore(disk, { flushDelay: 0 });
  const summary = await store.create(id, once(new TextEncoder().encode(text)));
  expect(summary.size).toBe(new TextEncoder().encode(text).length);
  const fresh = await freshFromFile(store, summary);
  const x = createExtractor(id, titleOf(summary));
  for (const line of text.split('\n')) x.line(line);
  const { meta, docs } = x.finish(summary.size);
  expect(docs.map((d) => d.id)).toEqual(['u1', 'a1', 'u2']);
  expect(fresh.meta).toEqual(meta);
  expect(fresh.part).toEqual(buildPart(docs));
});
