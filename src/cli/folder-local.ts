// The engine's local side over agent folders (pi's ~/.pi/agent/sessions, say): sessions are the
// `.jsonl` files whose first line is a session header. Files are only ever appended to (when still
// the size the engine saw) or created (never over an existing file); nothing is truncated,
// overwritten or deleted — a version that diverged is written beside as a new file.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import type { LocalCopy, LocalSide } from '../sync/index.ts';

async function* walk(dir: string): AsyncGenerator<string> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const full = join(dir, e.name);
    if (e.isDirectory()) yield* walk(full);
    else if (e.isFile() && e.name.endsWith('.jsonl')) yield full;
  }
}

/** The session id of a file's header line, or null when the file does not start with one. */
async function headerId(path: string): Promise<string | null> {
  const handle = await fs.open(path, 'r');
  try {
    const buf = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    const text = buf.subarray(0, bytesRead).toString('utf8');
    const nl = text.indexOf('\n');
    if (nl < 0) return null;
    const head = JSON.parse(text.slice(0, nl)) as { type?: string; id?: string };
    return head?.type === 'session' && typeof head.id === 'string' ? head.id : null;
  } catch {
    return null;
  } finally {
    await handle.close();
  }
}

const toSlash = (p: string) => p.split(sep).join('/');

/** Creates `path` with `bytes` unless something is there: written aside, then linked in (never replacing). */
async function createNew(path: string, bytes: Uint8Array): Promise<void> {
  await fs.mkdir(dirname(path), { recursive: true });
  const tmp = join(dirname(path), `.rho-sync-${randomBytes(6).toString('hex')}.part`);
  await fs.writeFile(tmp, bytes, { flag: 'wx' });
  try {
    await fs.link(tmp, path);
  } finally {
    await fs.unlink(tmp);
  }
}

export interface FolderLocal extends LocalSide {
  /** Records the run's notices (kept files, deletions refused) for the command line's report. */
  notices: string[];
}

export function folderLocal(folders: string[]): FolderLocal {
  const notices: string[] = [];
  return {
    notices,
    async list() {
      const out: LocalCopy[] = [];
      for (const folder of folders)
        for await (const file of walk(folder)) {
          const key = await headerId(file);
          if (!key) continue;
          const { size } = await fs.stat(file);
          out.push({ key, copy: file, size, path: toSlash(relative(folder, file)) });
        }
      return out;
    },
    async read(copy, start, end) {
      const handle = await fs.open(copy, 'r');
      try {
        const buf = Buffer.alloc(end - start);
        let at = 0;
        while (at < buf.length) {
          const { bytesRead } = await handle.read(buf, at, buf.length - at, start + at);
          if (!bytesRead) break;
          at += bytesRead;
        }
        return new Uint8Array(buf.buffer, buf.byteOffset, at);
      } finally {
        await handle.close();
      }
    },
    async append(copy, expectedSize, bytes) {
      const handle = await fs.open(copy, 'a');
      try {
        const { size } = await handle.stat();
        if (size !== expectedSize) throw new Error(`${copy} changed while syncing (${size} bytes, expected ${expectedSize}); tried again next round`);
        await handle.write(bytes);
      } finally {
        await handle.close();
      }
    },
    async create(key, bytes, opts) {
      let path: string;
      if (opts.variantOf) {
        const stem = opts.variantOf.replace(/\.jsonl$/, '');
        path = `${stem}.sync-${randomBytes(3).toString('hex')}.jsonl`;
      } else {
        const rel = opts.path && !opts.path.split('/').includes('..') ? opts.path : `synced/${key}.jsonl`;
        path = join(folders[0], ...rel.split('/'));
        try {
          await fs.access(path);
          path = path.replace(/\.jsonl$/, `.sync-${randomBytes(3).toString('hex')}.jsonl`);
        } catch {
          /* free */
        }
      }
      await createNew(path, bytes);
      return path;
    },
    async trash(copy) {
      notices.push(`kept ${copy}: deleted on another device (agent folders are never deleted from)`);
      return false;
    },
  };
}
