// Writing OPFS files through sync access handles (opfs-disk.ts): whole writes with Chromium's
// quota quirk turned into QuotaExceededError, retries while another handle holds a file, and a
// file created for one whole write in place.
import { coalesce } from './chunks.ts';
import type { InPlaceFile } from './types.ts';

// Another handle on the same file (another tab's writer) makes Chromium refuse for a moment, and a
// File snapshot becomes unreadable (NotReadableError) when the file is replaced or grows while it is
// read (the index swapped in by a flush): wait and try again, from a fresh snapshot.
const RETRIED = new Set(['NoModificationAllowedError', 'InvalidStateError', 'NotReadableError']);

/** Runs `fn`, again after a short wait while the file is busy (see above). */
export async function retryBusy<T>(fn: () => Promise<T>, tries = 100): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await fn();
    } catch (e) {
      const name = (e as DOMException)?.name;
      if (i >= tries || !RETRIED.has(name)) throw e;
      await new Promise((r) => setTimeout(r, 10 + i * 2));
    }
  }
}

/**
 * Writes all of `bytes` at `at` through a sync access handle. Chromium does not throw when a write
 * goes over quota: write() returns a bogus count (e.g. 4294967288) and writes nothing, so a count
 * outside (0, remaining] is taken as QuotaExceededError rather than trusted.
 */
export function writeAll(access: FileSystemSyncAccessHandle, bytes: Uint8Array, at: number): void {
  let done = 0;
  while (done < bytes.length) {
    const n = access.write(done ? bytes.subarray(done) : bytes, { at: at + done });
    if (!(n > 0 && n <= bytes.length - done)) throw new DOMException('The device has no room left for this write.', 'QuotaExceededError');
    done += n;
  }
}

/** Throws unless the file holds exactly `expected` bytes (what we wrote, before it is swapped in or kept). */
export function checkSize(access: FileSystemSyncAccessHandle, expected: number): void {
  if (access.getSize() !== expected) throw new DOMException('The write did not complete.', 'QuotaExceededError');
}

/**
 * File `name` of `dir` (at `path`) created, or a leftover of that name opened, for one whole write
 * (writeInPlace, or the store opening a new session's file ahead of its turn): on any failure, or
 * when discarded, it is closed and removed.
 */
export async function openInPlaceFile(dir: FileSystemDirectoryHandle, name: string, path: string): Promise<InPlaceFile> {
  const handle = await dir.getFileHandle(name, { create: true });
  const remove = () => dir.removeEntry(name).catch(() => undefined);
  let access: FileSystemSyncAccessHandle | null;
  try {
    access = await retryBusy(() => handle.createSyncAccessHandle());
  } catch (e) {
    await remove();
    throw e;
  }
  const take = () => {
    const a = access;
    if (!a) throw new Error(`${path} was already written or discarded.`);
    access = null;
    return a;
  };
  return {
    async write(chunks, opts = {}) {
      const a = take();
      try {
        let at = 0;
        for await (const chunk of coalesce(chunks)) {
          opts.signal?.throwIfAborted();
          writeAll(a, chunk, at);
          at += chunk.length;
        }
        // Longer: a leftover of the same name (a cache written before), cut to what was written.
        // Shorter: the write did not complete. A file made new by this open (`fresh`) has no
        // leftover, and writeAll saw every byte written: no second look at its size (a call to the
        // browser where OPFS is held in memory).
        const got = opts.fresh ? at : a.getSize();
        if (got > at) {
          a.truncate(at);
          checkSize(a, at);
        } else if (got < at) throw new DOMException('The write did not complete.', 'QuotaExceededError');
        if (opts.flush !== false) a.flush();
        a.close();
        return at;
      } catch (e) {
        // No partial file: what was written so far goes.
        a.close();
        await remove();
        throw e;
      }
    },
    async discard() {
      take().close();
      await remove();
    },
  };
}
