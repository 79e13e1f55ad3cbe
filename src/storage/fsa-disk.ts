// A folder picked with the File System Access API (showDirectoryPicker) as a FolderDisk. The same
// code runs over an OPFS directory handle (the same FileSystemDirectoryHandle interface), which is
// how tests hand it a folder they write in as an agent does.
import { type FolderDisk, type FolderFile, folderConflict } from './folder.ts';

const LOOKS_AT_ONCE = 64;

/** Whether a directory handle can be written through (createWritable on its files). */
interface WritableFileHandle extends FileSystemFileHandle {
  createWritable(options?: { keepExistingData?: boolean }): Promise<FileSystemWritableFileStream>;
}

/** The FolderDisk over a directory handle. */
export function createFsaDisk(root: FileSystemDirectoryHandle): FolderDisk {
  const dirOf = async (path: string, create = false): Promise<[FileSystemDirectoryHandle, string]> => {
    const parts = path.split('/');
    const name = parts.pop() as string;
    let dir = root;
    for (const p of parts) dir = await dir.getDirectoryHandle(p, { create });
    return [dir, name];
  };
  const fileHandle = async (path: string) => {
    const [dir, name] = await dirOf(path);
    return (await dir.getFileHandle(name)) as WritableFileHandle;
  };
  const exists = async (path: string) => {
    try {
      await fileHandle(path);
      return true;
    } catch (e) {
      if ((e as DOMException)?.name === 'NotFoundError' || (e as DOMException)?.name === 'TypeMismatchError') return false;
      throw e;
    }
  };
  return {
    name: root.name,
    async *walk(signal) {
      // Iterative: agent folders can be deep (subagents of subagents).
      const stack: Array<[FileSystemDirectoryHandle, string]> = [[root, '']];
      while (stack.length) {
        signal?.throwIfAborted();
        const [dir, prefix] = stack.pop() as [FileSystemDirectoryHandle, string];
        const files: Array<[string, FileSystemFileHandle]> = [];
        for await (const [name, handle] of dir.entries()) {
          if (handle.kind === 'directory') stack.push([handle as FileSystemDirectoryHandle, `${prefix}${name}/`]);
          else files.push([name, handle as FileSystemFileHandle]);
        }
        // Sizes and times of many files at once: each look is a round trip to the browser process.
        for (let i = 0; i < files.length; i += LOOKS_AT_ONCE) {
          const looks = files.slice(i, i + LOOKS_AT_ONCE).map(([name, h]) =>
            h.getFile().then(
              (f): FolderFile => ({ path: `${prefix}${name}`, size: f.size, modified: f.lastModified, snapshot: f }),
              // Gone between the listing and the look (the agent renamed it): the next walk sees what is there.
              () => null,
            ),
          );
          for (const f of await Promise.all(looks)) if (f) yield f;
        }
      }
    },
    async stat(path) {
      try {
        const f = await (await fileHandle(path)).getFile();
        return { path, size: f.size, modified: f.lastModified };
      } catch (e) {
        if ((e as DOMException)?.name === 'NotFoundError' || (e as DOMException)?.name === 'TypeMismatchError') return null;
        throw e;
      }
    },
    async blob(path) {
      return (await fileHandle(path)).getFile();
    },
    async appendAt(path, expectedSize, bytes) {
      const handle = await fileHandle(path);
      if ((await handle.getFile()).size !== expectedSize) throw folderConflict(`${path} changed since it was read; nothing was written.`);
      // keepExistingData: the writable starts as a copy of the file; our bytes go after its end.
      // Chromium swaps the copy in on close(), so the size is checked once more just before: if the
      // agent wrote meanwhile, the copy is dropped (abort) and the agent's file stays as it wrote it.
      const writable = await handle.createWritable({ keepExistingData: true });
      try {
        await writable.seek(expectedSize);
        await writable.write(bytes as Uint8Array<ArrayBuffer>);
        if ((await handle.getFile()).size !== expectedSize) throw folderConflict(`${path} changed while it was written to; nothing was written.`);
        await writable.close();
      } catch (e) {
        await writable.abort().catch(() => undefined);
        throw e;
      }
    },
    async createNew(path, chunks) {
      if (await exists(path)) throw folderConflict(`${path} exists already; it was not replaced.`);
      const [dir, name] = await dirOf(path, true);
      const handle = (await dir.getFileHandle(name, { create: true })) as WritableFileHandle;
      const writable = await handle.createWritable();
      try {
        for await (const chunk of chunks) await writable.write(chunk as Uint8Array<ArrayBuffer>);
        await writable.close();
      } catch (e) {
        await writable.abort().catch(() => undefined);
        throw e;
      }
    },
  };
}
