// The in-page half of linked.bench.ts: writes a folder of sessions into OPFS (the same
// FileSystemDirectoryHandle interface a linked folder has), then times the real worker's first sync
// (an import of every file) and a re-sync of the unchanged folder, in one page, side by side.
import { connectWorker } from '../../src/worker/client.ts';

/** Builds the folder once (session ids start with `prefix`, four hex digits); returns the bytes written. */
export async function makeFolder(args: { folder: string; sessions: number; bytes: number; prefix?: string }): Promise<number> {
  const opfs = await navigator.storage.getDirectory();
  await opfs.removeEntry(args.folder, { recursive: true }).catch(() => undefined);
  const root = await opfs.getDirectoryHandle(args.folder, { create: true });
  const project = await root.getDirectoryHandle('--home-u-proj--', { create: true });
  const word = 'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor ';
  let total = 0;
  for (let i = 0; i < args.sessions; i++) {
    const id = `${args.prefix ?? '0199'}${i.toString(16).padStart(4, '0')}-0000-7000-8000-000000000000`;
    const lines = [JSON.stringify({ type: 'session', version: 3, id, timestamp: '2026-01-01T00:00:00.000Z', cwd: '/home/u/proj' })];
    let parent: string | null = null;
    let size = lines[0].length + 1;
    for (let n = 1; size < args.bytes; n++) {
      const eid = n.toString(16).padStart(8, '0');
      const line = JSON.stringify({
        type: 'message',
        id: eid,
        parentId: parent,
        timestamp: '2026-01-01T00:00:01.000Z',
        message: { role: n % 2 ? 'user' : 'assistant', content: [{ type: 'text', text: word.repeat(4) }], timestamp: n },
      });
      lines.push(line);
      size += line.length + 1;
      parent = eid;
    }
    const text = `${lines.join('\n')}\n`;
    const file = await project.getFileHandle(`2026-01-01T00-00-00-000Z_${id}.jsonl`, { create: true });
    const w = await file.createWritable();
    await w.write(text);
    await w.close();
    total += text.length;
  }
  return total;
}

/** Times the first sync (import) and then `runs` re-syncs of the unchanged folder; medians in ms. */
export async function timeSyncs(args: {
  folder: string;
  store: string;
  runs: number;
}): Promise<{ first: number; resync: number; added: number; unchanged: number }> {
  const opfs = await navigator.storage.getDirectory();
  await opfs.removeEntry(args.store, { recursive: true }).catch(() => undefined);
  const handle = await opfs.getDirectoryHandle(args.folder);
  const api = connectWorker(new Worker(`/src/worker/main.ts?root=${args.store}`, { type: 'module' }));
  await api.ping({ message: 'ready' });
  const key = `bench-${args.store}`;
  let t = performance.now();
  const first = await api.syncLinkedFolder({ key, handle });
  const firstMs = performance.now() - t;
  const times: number[] = [];
  let unchanged = 0;
  for (let i = 0; i < args.runs; i++) {
    t = performance.now();
    const again = await api.syncLinkedFolder({ key, handle });
    times.push(performance.now() - t);
    unchanged = again.unchanged;
  }
  times.sort((a, b) => a - b);
  return { first: firstMs, resync: times[Math.floor(times.length / 2)], added: first.items.filter((i) => i.outcome === 'added').length, unchanged };
}

/** The first sync's floor: every file of the folder read and written to a fresh OPFS folder with sync handles, in a worker of its own; ms. */
export async function timeRawCopy(args: { folder: string; into: string }): Promise<number> {
  const opfs = await navigator.storage.getDirectory();
  await opfs.removeEntry(args.into, { recursive: true }).catch(() => undefined);
  const source = `
    const walk = async function* (dir) {
      for await (const h of dir.values()) {
        if (h.kind === 'directory') yield* walk(h);
        else yield h;
      }
    };
    self.onmessage = async (e) => {
      const { handle, into } = e.data;
      const t0 = performance.now();
      const out = await (await navigator.storage.getDirectory()).getDirectoryHandle(into, { create: true });
      let i = 0;
      for await (const h of walk(handle)) {
        const bytes = new Uint8Array(await (await h.getFile()).arrayBuffer());
        const a = await (await out.getFileHandle('f' + i++, { create: true })).createSyncAccessHandle();
        a.write(bytes, { at: 0 });
        a.flush();
        a.close();
      }
      postMessage(performance.now() - t0);
    };`;
  const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
  try {
    return await new Promise<number>((res, rej) => {
      worker.onmessage = (e) => res(e.data as number);
      worker.onerror = (e) => rej(new Error(e.message));
      void opfs.getDirectoryHandle(args.folder).then((handle) => worker.postMessage({ handle, into: args.into }));
    });
  } finally {
    worker.terminate();
    await opfs.removeEntry(args.into, { recursive: true }).catch(() => undefined);
  }
}

/**
 * The first sync of `folder` into an empty library and into one that already holds the sessions of
 * `grown` (linked first, not timed), in the order asked; ms of each.
 */
export async function timeFirstSyncs(args: {
  folder: string;
  store: string;
  /** Another folder (other session ids) linked into the library first; without it only the empty library is timed. */
  grown?: string;
  libraryFirst?: boolean;
}): Promise<{ empty: number; library?: number; added: number }> {
  const opfs = await navigator.storage.getDirectory();
  const handle = await opfs.getDirectoryHandle(args.folder);
  const time = async (store: string, before?: string) => {
    await opfs.removeEntry(store, { recursive: true }).catch(() => undefined);
    const worker = new Worker(`/src/worker/main.ts?root=${store}`, { type: 'module' });
    const api = connectWorker(worker);
    await api.ping({ message: 'ready' });
    if (before) await api.syncLinkedFolder({ key: `bench-${store}-grown`, handle: await opfs.getDirectoryHandle(before) });
    const t = performance.now();
    const report = await api.syncLinkedFolder({ key: `bench-${store}`, handle });
    const ms = performance.now() - t;
    worker.terminate();
    await opfs.removeEntry(store, { recursive: true }).catch(() => undefined);
    return { ms, added: report.items.filter((i) => i.outcome === 'added').length };
  };
  const grown = args.grown;
  const intoLibrary = () => (grown ? time(`${args.store}-library`, grown) : Promise.resolve(undefined));
  const library = args.libraryFirst ? await intoLibrary() : undefined;
  const empty = await time(`${args.store}-empty`);
  const libraryAfter = args.libraryFirst ? library : await intoLibrary();
  return { empty: empty.ms, library: libraryAfter?.ms, added: Math.min(empty.added, libraryAfter?.added ?? empty.added) };
}

let profiled: ReturnType<typeof connectWorker> | null = null;

/** For profile-linked.ts: a worker over store `store` (the Node side attaches its profiler to it), with the sessions of folder `grown` linked first when given. */
export async function startProfiled(args: { store: string; grown?: string }): Promise<void> {
  const opfs = await navigator.storage.getDirectory();
  await opfs.removeEntry(args.store, { recursive: true }).catch(() => undefined);
  profiled = connectWorker(new Worker(`/src/worker/main.ts?root=${args.store}`, { type: 'module' }));
  await profiled.ping({ message: 'ready' });
  if (args.grown) await profiled.syncLinkedFolder({ key: 'profile-grown', handle: await opfs.getDirectoryHandle(args.grown) });
}

/** For profile-linked.ts: the first sync of `folder` in the profiled worker; ms. */
export async function syncProfiled(args: { folder: string }): Promise<number> {
  const handle = await (await navigator.storage.getDirectory()).getDirectoryHandle(args.folder);
  const t = performance.now();
  await profiled!.syncLinkedFolder({ key: 'profile-folder', handle });
  return performance.now() - t;
}
