// Node's fs in the shape of a FileSystemDirectoryHandle (src/sync/transports/folder.ts), so a folder
// space works the same from the command line as from the browser's picked folder.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { DirectoryLike, FileLike } from '../sync/index.ts';

function notFound(path: string): DOMException {
  return new DOMException(`${path} does not exist`, 'NotFoundError');
}

function fileAt(path: string): FileLike {
  return {
    kind: 'file',
    async getFile() {
      const stat = await fs.stat(path).catch(() => {
        throw notFound(path);
      });
      return { size: stat.size, lastModified: stat.mtimeMs, arrayBuffer: async () => new Uint8Array(await fs.readFile(path)).buffer };
    },
    async createWritable() {
      const tmp = join(path, '..', `.tmp-${randomBytes(6).toString('hex')}`);
      const parts: Uint8Array[] = [];
      return {
        async write(data: Uint8Array) {
          parts.push(data.slice());
        },
        async close() {
          await fs.writeFile(tmp, parts);
          await fs.rename(tmp, path);
        },
      };
    },
  };
}

export function fsDirectory(path: string): DirectoryLike {
  return {
    kind: 'directory',
    async getDirectoryHandle(name, options) {
      const p = join(path, name);
      if (options?.create) await fs.mkdir(p, { recursive: true });
      else if (!(await fs.stat(p).catch(() => null))?.isDirectory()) throw notFound(p);
      return fsDirectory(p);
    },
    async getFileHandle(name, options) {
      const p = join(path, name);
      if (!options?.create && !(await fs.stat(p).catch(() => null))?.isFile()) throw notFound(p);
      return fileAt(p);
    },
    async removeEntry(name) {
      await fs.rm(join(path, name)).catch((e: NodeJS.ErrnoException) => {
        throw e.code === 'ENOENT' ? notFound(join(path, name)) : e;
      });
    },
    async *entries() {
      for (const e of await fs.readdir(path, { withFileTypes: true }))
        yield [e.name, e.isDirectory() ? fsDirectory(join(path, e.name)) : fileAt(join(path, e.name))];
    },
  };
}
