// The in-page half of search.bench.ts (served by vite). Builds a library of generated sessions
// (test/gen: text, thinking, tool calls and outputs, images, compactions, branches) as Blobs, imports
// it through the real worker into OPFS, then measures the index against a full scan (no index): import with
// and without indexing, bytes on disk, a lost index rebuilt, queries typed key by key.
import { connectWorker, type Remote } from '../../src/worker/client.ts';
import type { Api } from '../../src/worker/api.ts';
import { FIRST_SCREEN, PAGE } from '../../src/ui/models/search-pages.ts';
import './buffer-shim.ts';
import { generateSessionText } from '../gen/session.ts';

type Bench = { root: string; api: Remote<Api>; worker: Worker; sessionBytes: number };
let bench: Bench | null = null;

function start(root: string, query = ''): { api: Remote<Api>; worker: Worker } {
  const worker = new Worker(`/src/worker/main.ts?root=${root}${query}`, { type: 'module' });
  return { api: connectWorker(worker), worker };
}

/**
 * Generates the library and imports it three times, each into a fresh folder: without indexing (a
 * worker that leaves the index to a later sync, `?index=later`: the baseline), with it (the import,
 * which indexes what it writes, and the sync after it that finishes the index), without it again.
 */
export async function setupLibrary(args: { totalMb: number; sessions: number }) {
  const root = `search-${Date.now()}`;
  const per = Math.floor((args.totalMb * 1024 * 1024) / args.sessions);
  const files: File[] = [];
  const g0 = performance.now();
  // The generated files are written to a folder of the origin's private file system and imported
  // from there, as files from a disk are: 500 MB of Blobs made in the page overran Chromium 156's
  // blob storage ("The requested file could not be read" in the import).
  const genDir = await (await navigator.storage.getDirectory()).getDirectoryHandle(`${root}-gen`, { create: true });
  for (let i = 0; i < args.sessions; i++) {
    const text = generateSessionText({ seed: 1000 + i, targetBytes: per, flavor: i % 3 === 2 ? 'omp' : 'pi', startMs: Date.UTC(2025, 0, 1) + i * 3600_000 });
    const handle = await genDir.getFileHandle(`s-${i}.jsonl`, { create: true });
    const writable = await handle.createWritable();
    await writable.write(text);
    await writable.close();
    files.push(await handle.getFile());
  }
  const genMs = performance.now() - g0;
  const sessionBytes = files.reduce((n, f) => n + f.size, 0);
  // The baseline runs before and after the candidate (the mean of the two), so a busy moment of the
  // machine does not fall on one side only.
  const plainImport = async (n: number) => {
    const plain = start(`${root}-plain${n}`, '&index=later');
    await plain.api.ping({ message: 'ready' });
    const p0 = performance.now();
    await plain.api.importFiles({ files });
    const ms = performance.now() - p0;
    plain.worker.terminate();
    await (await navigator.storage.getDirectory()).removeEntry(`${root}-plain${n}`, { recursive: true }).catch(() => undefined);
    return ms;
  };
  const plainBefore = await plainImport(1);
  const { api, worker } = start(root);
  await api.ping({ message: 'ready' });
  const t0 = performance.now();
  const report = await api.importFiles({ files });
  const indexedImportMs = performance.now() - t0;
  const t1 = performance.now();
  const synced = await api.syncSearchIndex({});
  const syncMs = performance.now() - t1;
  const plainAfter = await plainImport(2);
  const importMs = (plainBefore + plainAfter) / 2;
  const info = await api.searchIndexInfo({});
  bench = { root, api, worker, sessionBytes };
  return {
    genMs,
    sessionBytes,
    added: report.items.filter((x) => x.outcome === 'added').length,
    importMs,
    plainBefore,
    plainAfter,
    indexedImportMs,
    syncMs,
    indexed: synced.sessions,
    indexBytes: info.bytes,
  };
}

/** A new worker (as after a reload): the time to read the index from its parts. */
export async function reopen() {
  if (!bench) throw new Error('no library');
  bench.worker.terminate();
  const { api, worker } = start(bench.root);
  bench = { ...bench, api, worker };
  await api.listSessions({});
  const t0 = performance.now();
  await api.syncSearchIndex({});
  return { loadMs: performance.now() - t0 };
}

/** Deletes the index's folder and starts a new worker: the time to rebuild it from the files. */
export async function loseIndex() {
  if (!bench) throw new Error('no library');
  bench.worker.terminate();
  const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle(bench.root);
  // The terminated worker's read-only segment handles are let go a moment later, and until then
  // the folder cannot be removed (NoModificationAllowedError): try again until they are.
  for (let attempt = 0; ; attempt++) {
    try {
      await dir.removeEntry('search', { recursive: true });
      break;
    } catch (e) {
      if ((e as DOMException).name !== 'NoModificationAllowedError' || attempt >= 500) throw e;
      await new Promise((r) => setTimeout(r, 10));
    }
  }
  const { api, worker } = start(bench.root);
  bench = { ...bench, api, worker };
  await api.listSessions({});
  let progress = 0;
  const t0 = performance.now();
  await api.syncSearchIndex({}, { onProgress: () => progress++ });
  return { rebuildMs: performance.now() - t0, progressMessages: progress, indexBytes: (await api.searchIndexInfo({})).bytes };
}

/**
 * Types each query key by key (every prefix, ending with the whole query) through the index, as the
 * search box asks: a keystroke's answer is its first screen (FIRST_SCREEN sessions); the rest of the
 * page follows in a second call. The time of each keystroke's answer, and of its whole page.
 */
export async function typeQueries(queries: string[]) {
  if (!bench) throw new Error('no library');
  const times: number[] = [];
  const pages: number[] = [];
  const found: Record<string, number> = {};
  for (const q of queries) {
    for (let n = 1; n <= q.length; n++) {
      const t0 = performance.now();
      const r = await bench.api.search({ query: q.slice(0, n), limit: FIRST_SCREEN });
      times.push(performance.now() - t0);
      let total = r.total;
      if (r.more) total = (await bench.api.search({ query: q.slice(0, n), limit: PAGE - FIRST_SCREEN, offset: r.next, shown: r.sessions.length })).total;
      pages.push(performance.now() - t0);
      if (n === q.length) found[q] = total;
    }
  }
  return { times, pages, found };
}

/** The full scan (no index), once per whole query (it reads every byte each time). */
export async function scanQueries(queries: string[]) {
  if (!bench) throw new Error('no library');
  const times: number[] = [];
  const found: Record<string, number> = {};
  for (const q of queries) {
    const t0 = performance.now();
    const r = await bench.api.searchScan({ query: q, limit: 500 });
    times.push(performance.now() - t0);
    found[q] = new Set(r.map((h) => h.id)).size;
  }
  return { times, found };
}

/** Lists the library (what the library screen asks of the worker). */
export async function listLibrary() {
  if (!bench) throw new Error('no library');
  return (await bench.api.listSessions({})).length;
}

/** Removes the library from OPFS. */
export async function cleanup() {
  if (!bench) return;
  bench.worker.terminate();
  await (await navigator.storage.getDirectory()).removeEntry(bench.root, { recursive: true }).catch(() => undefined);
  await (await navigator.storage.getDirectory()).removeEntry(`${bench.root}-gen`, { recursive: true }).catch(() => undefined);
  bench = null;
}
