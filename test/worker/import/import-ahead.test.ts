// The import's locks taken ahead (import.ts, storage/write-locks.ts) end with the import: a read
// ahead that lands after an import failed takes no lock (another writer of that session would wait
// for it forever).
import { describe, expect, test } from 'vitest';
import { createMemoryDisk } from '../../../src/storage/memory-disk.ts';
import { createStore } from '../../../src/storage/store.ts';
import { importAll } from '../../../src/worker/import/api.ts';
import { sessionText } from '../../storage/helpers.ts';

const encoder = new TextEncoder();

/** A file whose reads wait for `open()` (a slow read of the page's file). */
function gatedFile(text: string) {
  const bytes = encoder.encode(text);
  let open = () => {};
  const gate = new Promise<void>((r) => (open = r));
  const blob = {
    size: bytes.length,
    slice: (start = 0, end = bytes.length) => ({ arrayBuffer: () => gate.then(() => bytes.slice(start, end).buffer) }),
  } as unknown as Blob;
  return { blob, open };
}

describe('locks taken ahead by an import', () => {
  test('a read ahead that lands after the import failed takes no lock', async () => {
    const disk = createMemoryDisk({ quota: 40_000 });
    const store = createStore(disk, { flushDelay: 0 });
    const late = gatedFile(sessionText('late', 2));
    const files = [
      { path: 'fits.jsonl', file: new Blob([sessionText('fits', 2)]) },
      { path: 'too-big.jsonl', file: new Blob([sessionText('too-big', 400)]) },
      { path: 'late.jsonl', file: late.blob },
    ];
    const failed = await importAll(files, { store }).catch((e) => e);
    expect(failed).toMatchObject({ code: 'quota-exceeded' });
    late.open();
    // The late read's promise chain (microtasks) has run by the next task.
    await new Promise((r) => setTimeout(r, 0));
    // Another store (another tab) writes that session: its lock is free.
    const other = createStore(disk, { flushDelay: 0 });
    expect(await other.withWriteLock('late', async () => 'written')).toBe('written');
  });
});
