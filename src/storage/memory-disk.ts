// A Disk in memory: the store in Node tests, and the app's store where OPFS is missing (some
// private windows), where the UI then says plainly that nothing will be kept.
import type { ByteChunks, Disk, DiskEntry } from './types.ts';

interface MemoryFile {
  bytes: Uint8Array;
  modified: number;
  /** Where appends go: `bytes` is its start, the rest is room to grow (so an append copies what it adds, not the file). */
  room?: Uint8Array;
}

/** Options of the memory disk: a quota (to test QuotaExceededError) and a clock. */
export interface MemoryDiskOptions {
  quota?: number;
  now?: () => number;
}

// How long a remove waits for a file's readers to close (about what the OPFS disk's retries allow).
const REMOVE_WAIT_MS = 10_000;

function notFound(path: string): DOMException {
  return new DOMException(`${path} does not exist`, 'NotFoundError');
}

function quotaExceeded(): DOMException {
  return new DOMException('The quota has been exceeded.', 'QuotaExceededError');
}

/** A memory Disk, also exposing its files and quota to tests. */
export function createMemoryDisk(options: MemoryDiskOptions = {}): Disk & { files: Map<string, MemoryFile>; quota: number; readers: Map<string, number> } {
  const files = new Map<string, MemoryFile>();
  // Readers open on each path (openReader): like OPFS's read-only handles, they keep the file from being removed.
  const readers = new Map<string, number>();
  const waiting = new Map<string, Array<() => void>>();
  // Whether the last reader of a path closes within REMOVE_WAIT_MS.
  const closed = (path: string) =>
    new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), REMOVE_WAIT_MS);
      waiting.set(path, [
        ...(waiting.get(path) ?? []),
        () => {
          clearTimeout(timer);
          resolve(true);
        },
      ]);
    });
  const now = options.now ?? (() => Date.now());
  const used = () => {
    let total = 0;
    for (const f of files.values()) total += f.bytes.length;
    return total;
  };
  const disk = {
    persistent: false,
    files,
    readers,
    quota: options.quota ?? Number.MAX_SAFE_INTEGER,
    async list(dir: string): Promise<DiskEntry[]> {
      const prefix = dir + '/';
      const out: DiskEntry[] = [];
      for (const [path, f] of files) {
        const name = path.slice(prefix.length);
        if (path.startsWith(prefix) && !name.includes('/')) out.push({ name, size: f.bytes.length, modified: f.modified });
      }
      return out;
    },
    async names(dir: string): Promise<string[]> {
      return (await disk.list(dir)).map((e) => e.name);
    },
    async size(path: string) {
      return files.get(path)?.bytes.length ?? null;
    },
    async stat(path: string): Promise<DiskEntry | null> {
      const f = files.get(path);
      return f ? { name: path.slice(path.lastIndexOf('/') + 1), size: f.bytes.length, modified: f.modified } : null;
    },
    async read(path: string, start = 0, end?: number) {
      const f = files.get(path);
      if (!f) throw notFound(path);
      return f.bytes.slice(start, end ?? f.bytes.length);
    },
    async blob(path: string) {
      const f = files.get(path);
      if (!f) throw notFound(path);
      return new Blob([f.bytes as Uint8Array<ArrayBuffer>]);
    },
    async openReader(path: string) {
      const f = files.get(path);
      if (!f) throw notFound(path);
      // The bytes as they were when opened, as a file that is never written again reads.
      const bytes = f.bytes;
      readers.set(path, (readers.get(path) ?? 0) + 1);
      let open = true;
      return {
        size: bytes.length,
        read(start: number, end: number) {
          if (!open) throw new DOMException('The reader is closed.', 'InvalidStateError');
          return bytes.slice(start, end);
        },
        close() {
          if (!open) return;
          open = false;
          const n = (readers.get(path) ?? 1) - 1;
          if (n) readers.set(path, n);
          else {
            readers.delete(path);
            for (const w of waiting.get(path) ?? []) w();
            waiting.delete(path);
          }
        },
      };
    },
    async writeNew(path: string, chunks: ByteChunks, signal?: AbortSignal) {
      // Built aside and swapped in at the end, like the OPFS disk: a failure leaves nothing behind.
      const parts: Uint8Array[] = [];
      let size = 0;
      const room = disk.quota - used() + (files.get(path)?.bytes.length ?? 0);
      for await (const chunk of chunks) {
        signal?.throwIfAborted();
        size += chunk.length;
        if (size > room) throw quotaExceeded();
        parts.push(chunk.slice());
      }
      const bytes = new Uint8Array(size);
      let at = 0;
      for (const p of parts) {
        bytes.set(p, at);
        at += p.length;
      }
      files.set(path, { bytes, modified: now() });
      return size;
    },
    async append(path: string, input: Uint8Array | ByteChunks, signal?: AbortSignal) {
      const f = files.get(path);
      if (!f) throw notFound(path);
      // Gathered first and committed at the end: a failure leaves the file as it was.
      const parts: Uint8Array[] = [f.bytes];
      let added = 0;
      for await (const chunk of input instanceof Uint8Array ? [input] : input) {
        signal?.throwIfAborted();
        added += chunk.length;
        if (used() + added > disk.quota) throw quotaExceeded();
        parts.push(chunk.slice());
      }
      const size = f.bytes.length + added;
      // Everything handed out is a copy (read, blob, openReader's view ends at its size): writing past `bytes` in its room is unseen.
      const grows = f.room !== undefined && f.bytes.buffer === f.room.buffer && f.bytes.byteOffset === 0 && size <= f.room.length;
      const room = grows ? (f.room as Uint8Array) : new Uint8Array(size + (size >> 1));
      let at = grows ? f.bytes.length : 0;
      for (const p of grows ? parts.slice(1) : parts) {
        room.set(p, at);
        at += p.length;
      }
      files.set(path, { bytes: room.subarray(0, size), modified: now(), room });
    },
    async truncate(path: string, size: number) {
      const f = files.get(path);
      if (!f) throw notFound(path);
      files.set(path, { bytes: f.bytes.slice(0, size), modified: now() });
    },
    async move(from: string, to: string) {
      const f = files.get(from);
      if (!f) throw notFound(from);
      files.delete(from);
      files.set(to, f);
    },
    async remove(path: string) {
      // As OPFS's disk retries a file another tab holds open: it waits for its readers to close, for a while.
      if (readers.has(path) && !(await closed(path))) throw new DOMException(`${path} is open for reading`, 'NoModificationAllowedError');
      files.delete(path);
    },
    async estimate() {
      return { usage: used(), quota: disk.quota };
    },
  };
  return disk;
}
