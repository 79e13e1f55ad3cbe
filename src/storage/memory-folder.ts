// A FolderDisk in memory: the linked folder of Node tests and benchmarks, written to by the test as
// an agent writes. Same rules as the real one: append only to what was read, create only what is absent.
import { type FolderDisk, folderConflict } from './folder.ts';
import type { ByteChunks } from './types.ts';

/** A file of the memory folder. */
export interface MemoryFolderFile {
  bytes: Uint8Array;
  modified: number;
}

/** A memory FolderDisk, exposing its files (path → bytes) so tests can write as the agent. */
export function createMemoryFolder(name = 'sessions', now: () => number = () => Date.now()): FolderDisk & { files: Map<string, MemoryFolderFile> } {
  const files = new Map<string, MemoryFolderFile>();
  const notFound = (path: string) => new DOMException(`${path} does not exist`, 'NotFoundError');
  const concat = (a: Uint8Array, b: Uint8Array) => {
    const out = new Uint8Array(a.length + b.length);
    out.set(a);
    out.set(b, a.length);
    return out;
  };
  return {
    name,
    files,
    async *walk() {
      for (const [path, f] of [...files]) yield { path, size: f.bytes.length, modified: f.modified };
    },
    async stat(path) {
      const f = files.get(path);
      return f ? { path, size: f.bytes.length, modified: f.modified } : null;
    },
    async blob(path) {
      const f = files.get(path);
      if (!f) throw notFound(path);
      return new Blob([f.bytes.slice() as Uint8Array<ArrayBuffer>]);
    },
    async appendAt(path, expectedSize, bytes) {
      const f = files.get(path);
      if (!f) throw notFound(path);
      if (f.bytes.length !== expectedSize) throw folderConflict(`${path} changed since it was read; nothing was written.`);
      files.set(path, { bytes: concat(f.bytes, bytes), modified: now() });
    },
    async createNew(path, chunks: ByteChunks) {
      if (files.has(path)) throw folderConflict(`${path} exists already; it was not replaced.`);
      let bytes = new Uint8Array(0);
      for await (const c of chunks) bytes = concat(bytes, c);
      files.set(path, { bytes, modified: now() });
    },
  };
}
