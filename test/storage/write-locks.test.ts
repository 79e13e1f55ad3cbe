// Write locks taken ahead (src/storage/write-locks.ts) over the in-process lock queue: the first
// call of the store that reserved a lock runs under it, before anyone else waiting for it; a
// reservation let go unused frees the lock; a store about to wait lets go of what it holds ahead
// (no deadlock); a reserved session is still seen as it is on disk.
import { describe, expect, test } from 'vitest';
import { once } from '../../src/storage/chunks.ts';
import { createMemoryDisk } from '../../src/storage/memory-disk.ts';
import { createStore } from '../../src/storage/store.ts';
import { bytes, headerLine } from './helpers.ts';

const twoStores = () => {
  const disk = createMemoryDisk();
  return [createStore(disk, { flushDelay: 0 }), createStore(disk, { flushDelay: 0 })];
};

describe('locks taken ahead', () => {
  test("the reserving store's first call runs under the reservation, before another writer that asked after it", async () => {
    const [mine, other] = twoStores();
    mine.reserve?.('s1');
    const order: string[] = [];
    const theirs = other.withWriteLock('s1', async () => {
      order.push('other');
    });
    await mine.withWriteLock(
      's1',
      async () => {
        order.push('mine');
        // Under the lock, no file yet: the store was told so by the reservation's look.
        expect(await mine.family('s1')).toEqual([]);
        await mine.create('s1', once(bytes(`${headerLine('s1')}\n`)), { checked: true });
      },
      undefined,
      true,
    );
    await theirs;
    expect(order).toEqual(['mine', 'other']);
    expect((await other.family('s1')).map((s) => s.id)).toEqual(['s1']);
    await mine.releaseReserved?.();
  });

  test('a reservation let go unused frees the lock for the writer waiting on it', async () => {
    const [mine, other] = twoStores();
    mine.reserve?.('s2');
    let ran = false;
    const theirs = other.withWriteLock('s2', async () => {
      ran = true;
    });
    await mine.releaseReserved?.();
    await theirs;
    expect(ran).toBe(true);
    // And the next call of the reserving store takes the lock as usual.
    await mine.withWriteLock('s2', async () => undefined);
  });

  test('two stores each holding a lock ahead and then asking for the other one both go on (no deadlock)', async () => {
    const [a, b] = twoStores();
    a.reserve?.('x');
    b.reserve?.('y');
    const done = await Promise.all([a.withWriteLock('y', async () => 'a wrote y'), b.withWriteLock('x', async () => 'b wrote x')]);
    expect(done).toEqual(['a wrote y', 'b wrote x']);
    // Each let go of what it held ahead: the other sessions' locks are free again.
    expect(await a.withWriteLock('x', async () => 'free')).toBe('free');
    expect(await b.withWriteLock('y', async () => 'free')).toBe('free');
  });

  test('a session stored while reserved ahead is seen as stored by its writer', async () => {
    const [mine] = twoStores();
    await mine.withWriteLock('s3', () => mine.create('s3', once(bytes(`${headerLine('s3')}\n`)), { checked: true }));
    mine.reserve?.('s3');
    const family = await mine.withWriteLock('s3', () => mine.family('s3'), undefined, true);
    expect(family.map((s) => s.id)).toEqual(['s3']);
    await mine.releaseReserved?.();
  });
});
