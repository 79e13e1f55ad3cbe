// WebDAV through fetch: PROPFIND (Depth 1, walked folder by folder), PUT, GET, MKCOL, DELETE, with Basic auth.
import { base64, utf8 } from '../bytes.ts';
import { SyncError, type SpaceObject, type SyncErrorCode, type Transport, type WebDavSettings } from '../types.ts';
import { bodyOf, classifyFetchError, httpError } from './classify.ts';
import { xmlText } from './xml.ts';

const tag = (name: string) => new RegExp(`<(?:[\\w-]+:)?${name}(?:\\s[^>]*)?>([\\s\\S]*?)</(?:[\\w-]+:)?${name}>`, 'i');
const encodePath = (path: string): string => path.split('/').map(encodeURIComponent).join('/');

const PROPFIND_BODY =
  '<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:"><d:prop><d:resourcetype/><d:getcontentlength/><d:getlastmodified/></d:prop></d:propfind>';

/** Classifies a WebDAV answer that is not ok. */
function classifyDav(status: number, write: boolean, readAccepted: boolean): SyncErrorCode {
  if ((status === 401 || status === 403) && write && readAccepted) return 'forbidden-write';
  if (status === 401) return 'auth';
  if (status === 403) return write ? 'forbidden-write' : 'auth';
  if (status === 404) return 'not-found';
  if (status === 409) return 'no-such-bucket';
  return 'server';
}

export function webdavTransport(settings: WebDavSettings): Transport {
  const root = settings.url.endsWith('/') ? settings.url : `${settings.url}/`;
  const rootPath = new URL(root).pathname;
  const where = `WebDAV ${root}`;
  const auth = `Basic ${base64(utf8(`${settings.username}:${settings.password}`))}`;
  const made = new Set<string>();
  // Some servers answer 401 (not 403) to a write the user may not do: once a read was accepted with
  // these credentials, a refused write is a missing permission, not a wrong password.
  let readAccepted = false;

  async function call(
    method: string,
    path: string,
    what: string,
    init: { body?: Uint8Array | string; headers?: Record<string, string>; signal?: AbortSignal; write?: boolean; object?: string } = {},
  ): Promise<Response> {
    const url = root + encodePath(path);
    let res: Response;
    try {
      res = await fetch(url, { method, body: init.body as BodyInit | undefined, headers: { Authorization: auth, ...init.headers }, signal: init.signal });
    } catch (error) {
      throw await classifyFetchError(error, url, where, what);
    }
    if (res.ok) {
      if (!init.write) readAccepted = true;
      return res;
    }
    await res.body?.cancel();
    throw httpError(classifyDav(res.status, Boolean(init.write), readAccepted), where, what, res.status, res.statusText, init.object);
  }

  async function ensureDirs(name: string, signal?: AbortSignal): Promise<void> {
    const parts = name.split('/').slice(0, -1);
    for (let i = 1; i <= parts.length; i++) {
      const dir = `${parts.slice(0, i).join('/')}/`;
      if (made.has(dir)) continue;
      try {
        const res = await call('MKCOL', dir, `MKCOL ${dir}`, { signal, write: true });
        await res.body?.cancel();
      } catch (error) {
        // 405: the folder is there already
        if (!(error instanceof SyncError && error.status === 405)) throw error;
      }
      made.add(dir);
    }
  }

  async function propfind(dir: string, signal?: AbortSignal): Promise<{ path: string; dir: boolean; size: number; modified: number }[]> {
    const res = await call('PROPFIND', dir, `PROPFIND ${dir || '/'}`, {
      body: PROPFIND_BODY,
      headers: { Depth: '1', 'Content-Type': 'application/xml' },
      signal,
    });
    const xml = new TextDecoder().decode(await bodyOf(res, where, `PROPFIND ${dir}`));
    const out: { path: string; dir: boolean; size: number; modified: number }[] = [];
    for (const m of xml.matchAll(/<(?:[\w-]+:)?response(?:\s[^>]*)?>([\s\S]*?)<\/(?:[\w-]+:)?response>/gi)) {
      const href = xmlText(tag('href').exec(m[1])?.[1]?.trim() ?? '');
      const path = decodeURIComponent(new URL(href, root).pathname);
      if (!path.startsWith(decodeURIComponent(rootPath))) continue;
      const rel = path.slice(decodeURIComponent(rootPath).length);
      if (rel === dir || rel === dir.replace(/\/$/, '')) continue;
      const isDir = /<(?:[\w-]+:)?collection\s*\/?>/i.test(m[1]);
      out.push({
        path: isDir && !rel.endsWith('/') ? `${rel}/` : rel,
        dir: isDir,
        size: Number(tag('getcontentlength').exec(m[1])?.[1] ?? 0),
        modified: Date.parse(tag('getlastmodified').exec(m[1])?.[1] ?? '') || 0,
      });
    }
    return out;
  }

  return {
    kind: 'webdav',
    where,
    async put(name, bytes, signal) {
      await ensureDirs(name, signal);
      const res = await call('PUT', name, `PUT ${name}`, { body: bytes, signal, write: true, object: name });
      await res.body?.cancel();
    },
    async get(name, signal) {
      const res = await call('GET', name, `GET ${name}`, { signal, object: name });
      return bodyOf(res, where, `GET ${name}`);
    },
    async head(name, bytes, signal) {
      // a single "bytes=0-N" range is CORS-safelisted: the server's CORS headers need nothing more
      const res = await call('GET', name, `GET ${name} (its first ${bytes} bytes)`, { signal, object: name, headers: { Range: `bytes=0-${bytes - 1}` } });
      return bodyOf(res, where, `GET ${name}`);
    },
    async list(prefix, signal) {
      // the prefix is a folder ('rs1/'); the root must exist, the folder may not yet
      const start = prefix.endsWith('/') ? prefix : prefix.slice(0, prefix.lastIndexOf('/') + 1);
      try {
        await propfind('', signal);
      } catch (error) {
        if (error instanceof SyncError && error.code === 'not-found') throw httpError('no-such-bucket', where, 'PROPFIND /', 404, 'Not Found');
        throw error;
      }
      const out: SpaceObject[] = [];
      const todo = [start];
      while (todo.length) {
        const dir = todo.shift()!;
        let entries: Awaited<ReturnType<typeof propfind>>;
        try {
          entries = dir ? await propfind(dir, signal) : [];
        } catch (error) {
          if (error instanceof SyncError && error.code === 'not-found') continue;
          throw error;
        }
        for (const e of entries) {
          if (e.dir) todo.push(e.path);
          else if (e.path.startsWith(prefix)) out.push({ name: e.path, size: e.size, modified: e.modified });
        }
      }
      return out;
    },
    async delete(name, signal) {
      try {
        const res = await call('DELETE', name, `DELETE ${name}`, { signal, write: true, object: name });
        await res.body?.cancel();
      } catch (error) {
        if (!(error instanceof SyncError && error.code === 'not-found')) throw error;
      }
    },
  };
}
