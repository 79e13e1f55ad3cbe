// How queries read the index's segments: one reader per segment, kept open across keystrokes and
// closed when typing pauses or the segment is no longer used (an open reader keeps a file from being
// removed, here and in another tab); a disk without readers is read through Blob snapshots.
import { afterEach, describe, expect, test, vi } from 'vitest';
import { once } from '../../../src/storage/chunks.ts';
import { createMemoryDisk } from '../../../src/storage/memory-disk.ts';
import type { Disk } from '../../../src/storage/types.ts';
import { createSegmentFiles } from '../../../src/worker/search/segment-files.ts';

const bytes = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => (i * 7 + seed) & 255);

async function diskWith(...names: string[]) {
  const disk = createMemoryDisk();
  for (const [i, name] of names.entries()) await disk.writeNew(`search/${name}`, once(bytes(1000, i)));
  let opened = 0;
  let blobs = 0;
  const counted: Disk = {
    ...disk,
    openReader: (path) => {
      opened++;
      return disk.openReader!(path);
    },
    blob: (path) => {
      blobs++;
      return disk.blob(path);
    },
  };
  return { disk, counted, opens: () => opened, blobs: () => blobs };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('segment files', () => {
  test('one reader per segment serves every read, until reads pause', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { disk, counted, opens } = await diskWith('seg-a.bin', 'seg-b.bin');
    const files = createSegmentFiles(counted, 100);
    expect(await files.read('seg-a.bin', 10, 20)).toEqual(bytes(1000, 0).slice(10, 20));
    expect(await files.read('seg-a.bin', 990, 1010)).toEqual(bytes(1000, 0).slice(990));
    expect(await files.read('seg-b.bin', 0, 5)).toEqual(bytes(1000, 1).slice(0, 5));
    expect(opens()).toBe(2);
    expect([...disk.readers.keys()].sort()).toEqual(['search/seg-a.bin', 'search/seg-b.bin']);
    // Each read puts the close further back.
    vi.advanceTimersByTime(90);
    await files.read('seg-a.bin', 0, 1);
    vi.advanceTimersByTime(90);
    expect(disk.readers.size).toBe(2);
    vi.advanceTimersByTime(10);
    await Promise.resolve();
    expect(disk.readers.size).toBe(0);
    // The next read opens it again.
    expect(await files.read('seg-a.bin', 1, 2)).toEqual(bytes(1000, 0).slice(1, 2));
    expect(opens()).toBe(3);
  });

  test('release closes the segments no longer used, so they can be removed; the others stay open', async () => {
    const { disk, counted } = await diskWith('seg-a.bin', 'seg-b.bin');
    const files = createSegmentFiles(counted);
    await files.read('seg-a.bin', 0, 1);
    await files.read('seg-b.bin', 0, 1);
    files.release(new Set(['seg-b.bin']));
    await Promise.resolve();
    expect([...disk.readers.keys()]).toEqual(['search/seg-b.bin']);
    await disk.remove('search/seg-a.bin');
    expect(disk.files.has('search/seg-a.bin')).toBe(false);
    files.release();
    await Promise.resolve();
    expect(disk.readers.size).toBe(0);
  });

  test('a removal waits for the segment to be closed', async () => {
    const { disk, counted } = await diskWith('seg-a.bin');
    const files = createSegmentFiles(counted);
    await files.read('seg-a.bin', 0, 1);
    let removed = false;
    const removal = disk.remove('search/seg-a.bin').then(() => {
      removed = true;
    });
    await Promise.resolve();
    expect(removed).toBe(false);
    files.release();
    await removal;
    expect(disk.files.has('search/seg-a.bin')).toBe(false);
  });

  test('without readers (or when one cannot be opened), reads go through the Blob snapshot', async () => {
    const { counted, blobs } = await diskWith('seg-a.bin');
    const plain = createSegmentFiles({ ...counted, openReader: undefined });
    expect(await plain.read('seg-a.bin', 5, 9)).toEqual(bytes(1000, 0).slice(5, 9));
    expect(await plain.read('seg-a.bin', 9, 12)).toEqual(bytes(1000, 0).slice(9, 12));
    expect(blobs()).toBe(1);
    const refused = createSegmentFiles({ ...counted, openReader: () => Promise.reject(new DOMException('held', 'NoModificationAllowedError')) });
    expect(await refused.read('seg-a.bin', 0, 3)).toEqual(bytes(1000, 0).slice(0, 3));
    expect(blobs()).toBe(2);
    // A segment gone since is an error the caller sees (it rebuilds what it was reading).
    await expect(refused.read('seg-gone.bin', 0, 3)).rejects.toMatchObject({ name: 'NotFoundError' });
  });
});
