// The manifest a sync left is followed without reading it again only while the file is unchanged:
// another tab's write of the same size, a millisecond later, is read.
import { expect, test } from 'vitest';
import { createMemoryDisk } from '../../../src/storage/memory-disk.ts';
import { createManifestCache } from '../../../src/worker/search/manifest-cache.ts';
import { writeManifest } from '../../../src/worker/search/manifest-log.ts';
import { type Manifest, VERSION } from '../../../src/worker/search/segments.ts';

const manifest = (title: string): Manifest => ({
  v: VERSION,
  sessions: {
    a: {
      meta: { id: 'a', title, cwd: '/p', created: 0, last: 0, size: 10, models: [], tools: [], flags: 0 } as never,
      ref: { seg: 'seg-1.bin', w: [0, 1], r: [1, 2], t: [2, 3], c: [0, 0] },
    },
  },
});

test('an unchanged manifest is not read again; a write of the same size a moment later is', async () => {
  let clock = 1000;
  const disk = createMemoryDisk({ now: () => clock });
  const cache = createManifestCache(disk);
  await writeManifest(disk, manifest('first'));
  const m = (await cache.read())!;
  expect(m.sessions.a.meta.title).toBe('first');
  await cache.settled(m);
  // Unchanged: the very copy the sync left (no read, no parse).
  expect(await cache.read()).toBe(m);
  await cache.settled(m);
  // Another tab writes a manifest of the same size, a millisecond later.
  clock = 1001;
  await writeManifest(disk, manifest('other'));
  const next = (await cache.read())!;
  expect(next).not.toBe(m);
  expect(next.sessions.a.meta.title).toBe('other');
  // A file stamped with a time not yet past is never trusted (a write in the same millisecond would not show).
  clock = Date.now() + 60_000;
  await writeManifest(disk, manifest('third'));
  const third = (await cache.read())!;
  await cache.settled(third);
  expect(await cache.read()).not.toBe(third);
});
