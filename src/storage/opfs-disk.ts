// The Origin Private File System as a Disk. Writes go through sync access handles, which exist only
// in dedicated workers (https://fs.spec.whatwg.org/#api-filesystemsyncaccesshandle): whole files are
// written to tmp/ and moved into place when complete, or (writeInPlace, under a creation log the
// store keeps) straight where they belong; appends cut the file back on failure.
import { coalesce } from './chunks.ts';
import { isNotFound, StoreError } from './errors.ts';
import { checkSize, openInPlaceFile, retryBusy, writeAll } from './opfs-write.ts';
import type { ByteChunks, Disk, DiskEntry, InPlaceFile } from './types.ts';

const TMP_DIR = 'tmp';
/** Temp files older than this are leftovers of a crash (a live write takes seconds, not an hour). */
const STALE_TMP_MS = 3600 * 1000;

/** Whether this context can use the OPFS store (a dedicated worker with sync access handles). */
export function hasOpfs(): boolean {
  return (
    typeof navigator !== 'undefined' &&
    typeof navigator.storage?.getDirectory === 'function' &&
    typeof FileSystemFileHandle !== 'undefined' &&
    'createSyncAccessHandle' in FileSystemFileHandle.prototype
  );
}

// A read-only sync access handle (Chromium 121+) reads in a few microseconds, where a Blob slice of a
// file snapshot and its arrayBuffer() are calls to the browser process (about 0.5 ms of this thread's
// CPU, and several ms of waiting, each), and other readers (tabs) share it
// (https://fs.spec.whatwg.org/#dom-filesystemcreatesyncaccesshandleoptions-mode). TypeScript's lib
// does not know the option yet.
type OpenReadOnly = (options: { mode: 'read-only' }) => Promise<FileSystemSyncAccessHandle>;

/** Opens the OPFS Disk under `root` (a folder of the origin's OPFS, default its root). */
export async function openOpfsDisk(rootName?: string): Promise<Disk> {
  if (!hasOpfs()) throw new StoreError('storage-unavailable', 'This browser offers no private file system here; nothing can be kept.');
  let root = await navigator.storage.getDirectory();
  if (rootName) root = await root.getDirectoryHandle(rootName, { create: true });
  const dirs = new Map<string, FileSystemDirectoryHandle>();
  const dirOf = async (name: string) => {
    let d = dirs.get(name);
    if (!d) dirs.set(name, (d = await root.getDirectoryHandle(name, { create: true })));
    return d;
  };
  const split = (path: string): [string, string] => {
    const at = path.lastIndexOf('/');
    return at < 0 ? ['', path] : [path.slice(0, at), path.slice(at + 1)];
  };
  const dirFor = (dir: string) => (dir === '' ? Promise.resolve(root) : dirOf(dir));
  const fileHandle = async (path: string, create = false) => {
    const [dir, name] = split(path);
    return (await dirFor(dir)).getFileHandle(name, { create });
  };
  const getFile = async (path: string) => retryBusy(async () => (await fileHandle(path)).getFile());

  // Moves a handle to a path, replacing what is there (Chromium's move() replaces an existing file).
  const moveHandle = async (handle: FileSystemFileHandle, to: string) => {
    const [dir, name] = split(to);
    const target = await dirFor(dir);
    await retryBusy(() => (handle as FileSystemFileHandle & { move(d: FileSystemDirectoryHandle, n: string): Promise<void> }).move(target, name));
  };

  // Leftovers of an interrupted write are incomplete by construction: drop them.
  const tmp = await dirOf(TMP_DIR);
  for await (const [name, h] of tmp.entries()) {
    if (h.kind !== 'file') continue;
    try {
      const f = await (h as FileSystemFileHandle).getFile();
      if (Date.now() - f.lastModified > STALE_TMP_MS) await tmp.removeEntry(name);
    } catch {
      // In use by another tab's writer: leave it.
    }
  }

  const openInPlace = async (path: string): Promise<InPlaceFile> => {
    const [dir, name] = split(path);
    return openInPlaceFile(await dirFor(dir), name, path);
  };

  let tmpCounter = 0;
  const disk: Disk = {
    persistent: true,
    async list(dir) {
      const out: DiskEntry[] = [];
      const d = await dirFor(dir);
      for await (const [name, h] of d.entries()) {
        if (h.kind !== 'file') continue;
        const f = await retryBusy(() => (h as FileSystemFileHandle).getFile());
        out.push({ name, size: f.size, modified: f.lastModified });
      }
      return out;
    },
    async names(dir) {
      // keys(): names only, no handle made per entry (the store's folders hold only files).
      const out: string[] = [];
      for await (const name of (await dirFor(dir)).keys()) out.push(name);
      return out;
    },
    async size(path) {
      try {
        return (await getFile(path)).size;
      } catch (e) {
        if (isNotFound(e) || (e as DOMException)?.name === 'TypeMismatchError') return null;
        throw e;
      }
    },
    async stat(path) {
      try {
        const f = await getFile(path);
        return { name: f.name, size: f.size, modified: f.lastModified };
      } catch (e) {
        if (isNotFound(e) || (e as DOMException)?.name === 'TypeMismatchError') return null;
        throw e;
      }
    },
    async read(path, start = 0, end) {
      return retryBusy(async () => {
        const f = await (await fileHandle(path)).getFile();
        return new Uint8Array(await f.slice(start, end ?? f.size).arrayBuffer());
      });
    },
    blob: getFile,
    async openReader(path) {
      const handle = await fileHandle(path);
      const access = await (handle.createSyncAccessHandle as unknown as OpenReadOnly).call(handle, { mode: 'read-only' });
      const size = access.getSize();
      return {
        size,
        read(start, end) {
          const bytes = new Uint8Array(Math.max(0, Math.min(end, size) - start));
          const n = access.read(bytes, { at: start });
          return n === bytes.length ? bytes : bytes.subarray(0, n);
        },
        close: () => access.close(),
      };
    },
    async writeNew(path, chunks: ByteChunks, signal?: AbortSignal) {
      const name = `${Date.now()}-${++tmpCounter}-${Math.random().toString(16).slice(2, 10)}`;
      const handle = await tmp.getFileHandle(name, { create: true });
      let access: FileSystemSyncAccessHandle | null = await handle.createSyncAccessHandle();
      try {
        let at = 0;
        for await (const chunk of coalesce(chunks)) {
          signal?.throwIfAborted();
          writeAll(access, chunk, at);
          at += chunk.length;
        }
        access.flush();
        checkSize(access, at);
        access.close();
        access = null;
        await moveHandle(handle, path);
        return at;
      } catch (e) {
        // No partial file: the temp file goes, the target was never touched.
        access?.close();
        await tmp.removeEntry(name).catch(() => undefined);
        throw e;
      }
    },
    async writeInPlace(path, chunks: ByteChunks, opts = {}) {
      return (await openInPlace(path)).write(chunks, opts);
    },
    openInPlace,
    async openLog(path) {
      const handle = await fileHandle(path, true);
      const access = await retryBusy(() => handle.createSyncAccessHandle());
      const encoder = new TextEncoder();
      let at = access.getSize();
      return {
        write(line: string) {
          const bytes = encoder.encode(`${line}\n`);
          writeAll(access, bytes, at);
          at += bytes.length;
          return bytes.length;
        },
        reserve(size: number) {
          if (access.getSize() >= size) return;
          access.truncate(size);
          checkSize(access, size);
        },
        close: () => access.close(),
      };
    },
    async append(path, input, signal) {
      const handle = await fileHandle(path);
      const access = await retryBusy(() => handle.createSyncAccessHandle());
      const size = access.getSize();
      try {
        let at = size;
        for await (const bytes of input instanceof Uint8Array ? [input] : coalesce(input)) {
          signal?.throwIfAborted();
          writeAll(access, bytes, at);
          at += bytes.length;
        }
        access.flush();
        checkSize(access, at);
      } catch (e) {
        access.truncate(size);
        access.flush();
        throw e;
      } finally {
        access.close();
      }
    },
    async truncate(path, size) {
      const access = await retryBusy(async () => (await fileHandle(path)).createSyncAccessHandle());
      try {
        if (access.getSize() > size) access.truncate(size);
        access.flush();
      } finally {
        access.close();
      }
    },
    async move(from, to) {
      await moveHandle(await fileHandle(from), to);
    },
    async remove(path) {
      const [dir, name] = split(path);
      try {
        await retryBusy(async () => (await dirFor(dir)).removeEntry(name));
      } catch (e) {
        if (!isNotFound(e)) throw e;
      }
    },
    async estimate() {
      const e = await navigator.storage.estimate();
      return { usage: e.usage ?? 0, quota: e.quota ?? 0 };
    },
  };
  return disk;
}
