// Reading in chunks, so memory stays bounded by the chunk size, not by the file.
import { concatBytes } from '../core/read/record-stream.ts';
import type { ByteChunks, Disk } from './types.ts';

/** Size of one read: large enough to be fast, small enough to keep memory flat. */
export const CHUNK_SIZE = 4 * 1024 * 1024;

/**
 * Bytes `start` to `end` of a blob as a Blob: the blob itself when that is all of it. A slice is a
 * call to the browser process that waits for its answer (it registers a new blob there, a few
 * tenths of a millisecond of this thread each): a folder of small sessions would pay it per file.
 */
export function sliceOf(blob: Blob, start = 0, end = blob.size): Blob {
  return start <= 0 && end >= blob.size ? blob : blob.slice(start, end);
}

/**
 * A Blob (or File) read in chunks, optionally from `start`. The next chunk is read while the
 * caller works on this one (a write, a scan): reading a page's File from a worker is a round trip
 * to the browser, which would otherwise wait in line with the work. At most two chunks are held.
 */
export async function* blobChunks(blob: Blob, start = 0, chunkSize = CHUNK_SIZE, signal?: AbortSignal): ByteChunks {
  const read = (at: number) => {
    const p = sliceOf(blob, at, Math.min(at + chunkSize, blob.size))
      .arrayBuffer()
      .then((b) => new Uint8Array(b));
    // Left unread when the caller stops early: its failure is nobody's to hear.
    p.catch(() => undefined);
    return p;
  };
  let next = start < blob.size ? read(start) : null;
  for (let at = start; next; at += chunkSize) {
    signal?.throwIfAborted();
    const chunk = await next;
    next = at + chunkSize < blob.size ? read(at + chunkSize) : null;
    yield chunk;
  }
}

/** A file on a Disk read in chunks. */
export async function* diskChunks(disk: Disk, path: string, chunkSize = CHUNK_SIZE): ByteChunks {
  const size = await disk.size(path);
  if (size === null) return;
  for (let at = 0; at < size; at += chunkSize) yield await disk.read(path, at, Math.min(at + chunkSize, size));
}

/** One array of chunks passed on unchanged while `each` sees every chunk. */
export async function* tap(chunks: ByteChunks, each: (chunk: Uint8Array) => void): ByteChunks {
  for await (const chunk of chunks) {
    each(chunk);
    yield chunk;
  }
}

/** Size of one write when small chunks are gathered (`coalesce`). */
export const WRITE_SIZE = 1024 * 1024;

/**
 * Chunks gathered into writes of up to `size` bytes: small ones are copied together (a producer
 * may reuse its buffer, so none is held uncopied), a chunk of `size` or more passes as it is. On a profile
 * whose OPFS the browser process holds in memory, every sync-handle write is a round trip to it:
 * a search segment of 500 sessions' records would be 1,500 writes.
 */
export async function* coalesce(chunks: ByteChunks, size = WRITE_SIZE): ByteChunks {
  let parts: Uint8Array[] = [];
  let used = 0;
  const gathered = () => (parts.length === 1 ? parts[0] : concatBytes(parts));
  for await (const chunk of chunks) {
    if (used && used + chunk.length > size) {
      yield gathered();
      parts = [];
      used = 0;
    }
    if (chunk.length >= size) {
      yield chunk;
      continue;
    }
    parts.push(chunk.slice());
    used += chunk.length;
  }
  if (used) yield gathered();
}

/** Chunks from one in-memory array. */
export async function* once(bytes: Uint8Array): ByteChunks {
  if (bytes.length) yield bytes;
}

/** Concatenates byte arrays (the core's). */
export { concatBytes };
