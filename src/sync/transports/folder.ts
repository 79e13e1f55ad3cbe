// A folder another tool syncs, through an interface shaped like FileSystemDirectoryHandle: the
// browser's handle fits as it is, and the command line hands a Node fs adapter of the same shape.
import { SyncError, type SpaceObject, type Transport } from '../types.ts';

export interface WritableLike {
  write(data: Uint8Array): Promise<void>;
  close(): Promise<void>;
}

export interface FileLike {
  readonly kind: 'file';
  getFile(): Promise<{ size: number; lastModified: number; arrayBuffer(): Promise<ArrayBuffer> }>;
  createWritable(): Promise<WritableLike>;
}

export interface DirectoryLike {
  readonly kind: 'directory';
  getDirectoryHandle(name: string, options?: { create?: boolean }): Promise<DirectoryLike>;
  getFileHandle(name: string, options?: { create?: boolean }): Promise<FileLike>;
  removeEntry(name: string): Promise<void>;
  entries(): AsyncIterable<[string, DirectoryLike | FileLike]>;
}

const isNotFound = (e: unknown): boolean => (e as { name?: string })?.name === 'NotFoundError' || (e as { code?: string })?.code === 'ENOENT';

export function folderTransport(root: DirectoryLike, label: string): Transport {
  const where = `folder ${label}`;
  function fail(error: unknown, what: string, object?: string): never {
    if (isNotFound(error)) throw new SyncError('not-found', `${where}: ${what}: not there`, { object, cause: error });
    const name = (error as { name?: string })?.name;
    if (name === 'NotAllowedError' || (error as { code?: string })?.code === 'EACCES')
      throw new SyncError('forbidden-write', `${where}: ${what}: permission refused — allow this folder again`, { object, cause: error });
    throw new SyncError('local', `${where}: ${what}: ${(error as Error)?.message ?? error}`, { object, cause: error });
  }
  async function dirOf(name: string, create: boolean): Promise<{ dir: DirectoryLike; leaf: string }> {
    const parts = name.split('/');
    let dir = root;
    for (const p of parts.slice(0, -1)) dir = await dir.getDirectoryHandle(p, { create });
    return { dir, leaf: parts[parts.length - 1] };
  }
  async function walk(dir: DirectoryLike, path: string, prefix: string, out: SpaceObject[]): Promise<void> {
    for await (const [name, handle] of dir.entries()) {
      const full = path + name;
      if (handle.kind === 'directory') {
        if (prefix.startsWith(`${full}/`) || `${full}/`.startsWith(prefix)) await walk(handle, `${full}/`, prefix, out);
      } else if (full.startsWith(prefix) && !name.endsWith('.crswap') && !name.startsWith('.tmp-')) {
        const file = await handle.getFile();
        out.push({ name: full, size: file.size, modified: file.lastModified });
      }
    }
  }
  return {
    kind: 'folder',
    where,
    async put(name, bytes) {
      try {
        const { dir, leaf } = await dirOf(name, true);
        const w = await (await dir.getFileHandle(leaf, { create: true })).createWritable();
        await w.write(bytes);
        await w.close();
      } catch (error) {
        fail(error, `write ${name}`, name);
      }
    },
    async get(name) {
      try {
        const { dir, leaf } = await dirOf(name, false);
        return new Uint8Array(await (await (await dir.getFileHandle(leaf)).getFile()).arrayBuffer());
      } catch (error) {
        fail(error, `read ${name}`, name);
      }
    },
    async list(prefix) {
      const out: SpaceObject[] = [];
      try {
        await walk(root, '', prefix, out);
      } catch (error) {
        if (isNotFound(error)) throw new SyncError('no-such-bucket', `${where}: the folder is not there (moved, or on a disk not mounted)`, { cause: error });
        fail(error, 'list');
      }
      return out;
    },
    async delete(name) {
      try {
        const { dir, leaf } = await dirOf(name, false);
        await dir.removeEntry(leaf);
      } catch (error) {
        if (!isNotFound(error)) fail(error, `remove ${name}`, name);
      }
    },
  };
}
