// What a dropped, picked or shared file holds, judged by its bytes, not its name: a gzip stream
// (DecompressionStream), a zstd stream (fzstd, unzstd.ts), a zip bundle (fflate, streamed), an omp image blob, or text that may be a
// session. Compressed input is spooled to a scratch file so memory stays bounded.
import { Unzip, UnzipInflate, type UnzipFile } from 'fflate';
import { blobChunks } from '../../storage/chunks.ts';
import type { ByteChunks, SessionStore } from '../../storage/types.ts';
import { isZstd } from './unzstd.ts';

/** One file of an import, after unpacking: its display name and bytes. */
export interface Unpacked {
  name: string;
  blob: Blob;
  /** Where the bytes came from: a bundle entry may be trusted to hold blobs/ of its sessions. */
  fromBundle: boolean;
}

/** The sha256 an omp blob file stands for, from its path (`…/blobs/<sha256>[.ext]`), or null. */
export function blobPathHash(path: string): string | null {
  const m = /(?:^|\/)blobs\/([0-9a-f]{64})(?:\.[A-Za-z0-9]{1,8})?$/.exec(path);
  return m ? m[1] : null;
}

/**
 * A zip entry's name made safe to show and match: forward slashes, no drive, no leading slash,
 * no `.`/`..` segments, no control characters. Names never become paths we write to.
 */
export function sanitizeEntryName(name: string): string {
  const parts = name
    .replace(/\\/g, '/')
    .replace(/^[A-Za-z]:/, '')
    .split('/')
    .map((p) => p.replace(/[\u0000-\u001f\u007f]/g, ''))
    .filter((p) => p !== '' && p !== '.' && p !== '..');
  return parts.join('/');
}

/** What the first bytes say the file is. */
export function sniff(head: Uint8Array): 'gzip' | 'zstd' | 'zip' | 'text' {
  if (head[0] === 0x1f && head[1] === 0x8b) return 'gzip';
  if (isZstd(head)) return 'zstd';
  if (head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04) return 'zip';
  return 'text';
}

/** A queue of chunks between a synchronous producer (fflate) and an async consumer (a disk write). */
export class ChunkQueue implements AsyncIterable<Uint8Array> {
  private items: Uint8Array[] = [];
  private ended = false;
  private failure: unknown = null;
  private wake: (() => void) | null = null;
  private drainedWaiters: Array<() => void> = [];

  push(chunk: Uint8Array) {
    if (chunk.length) this.items.push(chunk);
    this.wake?.();
  }
  end() {
    this.ended = true;
    this.wake?.();
  }
  fail(e: unknown) {
    this.failure = e;
    this.wake?.();
  }
  /** Resolves when the consumer has taken everything pushed so far. */
  drained(): Promise<void> {
    if (this.items.length === 0) return Promise.resolve();
    return new Promise((r) => this.drainedWaiters.push(r));
  }
  async *[Symbol.asyncIterator]() {
    for (;;) {
      if (this.failure) throw this.failure;
      const next = this.items.shift();
      if (next) {
        if (this.items.length === 0) this.drainedWaiters.splice(0).forEach((r) => r());
        yield next;
        continue;
      }
      this.drainedWaiters.splice(0).forEach((r) => r());
      if (this.ended) return;
      await new Promise<void>((r) => (this.wake = r));
      this.wake = null;
    }
  }
}

/** The decompressed bytes of a gzip file, as chunks. */
export async function* gunzip(blob: Blob, signal?: AbortSignal): ByteChunks {
  const reader = blob.stream().pipeThrough(new DecompressionStream('gzip')).getReader();
  try {
    for (;;) {
      signal?.throwIfAborted();
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

// One zip entry on its way to a scratch file.
interface ZipEntryWrite {
  name: string;
  queue: ChunkQueue;
  spooled: Promise<{ blob: Blob; release(): Promise<void> }>;
  complete: boolean;
}

/**
 * Calls `visit` with each file of a zip, one at a time, each spooled to a scratch file. fflate
 * decompresses as bytes are pushed; we push the next megabyte only when the current entry's
 * bytes are on disk, so memory holds about one chunk, whatever the bundle's size.
 */
export async function eachZipEntry(blob: Blob, store: SessionStore, visit: (name: string, entry: Blob) => Promise<void>, signal?: AbortSignal): Promise<void> {
  let current: ZipEntryWrite | null = null;
  const finished: ZipEntryWrite[] = [];
  let failure: unknown = null;
  const unzip = new Unzip((file: UnzipFile) => {
    const name = sanitizeEntryName(file.name);
    if (file.name.endsWith('/') || name === '' || name.startsWith('__MACOSX/')) {
      file.ondata = () => undefined;
      file.start();
      return;
    }
    const queue = new ChunkQueue();
    const entry: ZipEntryWrite = { name, queue, spooled: store.spool(queue, signal), complete: false };
    entry.spooled.catch(() => undefined);
    current = entry;
    file.ondata = (err, data, final) => {
      if (err) {
        failure = err;
        queue.fail(err);
        return;
      }
      queue.push(data);
      if (final) {
        entry.complete = true;
        queue.end();
        finished.push(entry);
      }
    };
    file.start();
  });
  unzip.register(UnzipInflate);

  const drain = async () => {
    while (finished.length) {
      const entry = finished.shift()!;
      const { blob: spooled, release } = await entry.spooled;
      try {
        await visit(entry.name, spooled);
      } finally {
        await release();
      }
    }
  };

  for await (const chunk of blobChunks(blob, 0, 1024 * 1024, signal)) {
    unzip.push(chunk);
    if (failure) throw failure;
    const open = current as ZipEntryWrite | null;
    // The spool write failing (e.g. quota) must end the wait, not leave it hanging.
    if (open) await Promise.race([open.queue.drained(), open.spooled.then(() => undefined)]);
    await drain();
  }
  unzip.push(new Uint8Array(0), true);
  if (failure) throw failure;
  await drain();
  // A zip cut short ends inside an entry: fflate just stops. Say so (the entries before it were
  // complete and are kept), and drop the scratch file of the incomplete one.
  const open = current as ZipEntryWrite | null;
  if (open && !open.complete) {
    const cut = new Error(`the zip file is cut off inside ${open.name}`);
    open.queue.fail(cut);
    await open.spooled.catch(() => undefined);
    throw cut;
  }
  if (!(await hasZipEnd(blob))) throw new Error('the zip file is cut off: its end record is missing; the complete entries before the cut were read');
}

// Every whole zip ends with an end-of-central-directory record (PK\x05\x06) in its last 65,557 bytes.
async function hasZipEnd(blob: Blob): Promise<boolean> {
  const tail = new Uint8Array(await blob.slice(Math.max(0, blob.size - 65557)).arrayBuffer());
  for (let i = tail.length - 22; i >= 0; i--) if (tail[i] === 0x50 && tail[i + 1] === 0x4b && tail[i + 2] === 5 && tail[i + 3] === 6) return true;
  return false;
}
