// The in-page half of profile-search.ts: the search bench's library (generated, imported once with
// indexing, kept in the profile's OPFS between runs under a name that says its size), one worker,
// and keystrokes typed one by one.
import type { Api } from '../../src/worker/api.ts';
import { connectWorker, type Remote } from '../../src/worker/client.ts';
import { FIRST_SCREEN } from '../../src/ui/models/search-pages.ts';
import { generateSessionText } from '../gen/session.ts';
import './search-page.ts';

let api: Remote<Api> | null = null;

/** Opens the library `root` (generating and importing it when it is not there yet); its session count. */
export async function open(args: { root: string; totalMb: number; sessions: number }) {
  const opfs = await navigator.storage.getDirectory();
  const exists = await opfs.getDirectoryHandle(args.root).then(
    () => true,
    () => false,
  );
  api = connectWorker(new Worker(`/src/worker/main.ts?root=${args.root}`, { type: 'module' }));
  await api.ping({ message: 'ready' });
  if (!exists || (await api.listSessions({})).length < args.sessions) {
    const per = Math.floor((args.totalMb * 1024 * 1024) / args.sessions);
    const files: File[] = [];
    for (let i = 0; i < args.sessions; i++) {
      const text = generateSessionText({ seed: 1000 + i, targetBytes: per, flavor: i % 3 === 2 ? 'omp' : 'pi', startMs: Date.UTC(2025, 0, 1) + i * 3600_000 });
      files.push(new File([text], `s-${i}.jsonl`));
    }
    await api.importFiles({ files });
  }
  await api.syncSearchIndex({});
  return (await api.listSessions({})).length;
}

/** One keystroke's first screen, as the search box asks it: its time, sessions found and shown. */
export async function key(query: string) {
  const t0 = performance.now();
  const r = await api!.search({ query, limit: FIRST_SCREEN });
  return { ms: performance.now() - t0, total: r.total, shown: r.sessions.length, hits: r.sessions.reduce((n, s) => n + s.hits.length, 0) };
}

/** A new worker on the same library (as after a reload): it reads the index, then lists the library. */
export async function reopen(args: { root: string }) {
  api = connectWorker(new Worker(`/src/worker/main.ts?root=${args.root}&fresh=${Date.now()}`, { type: 'module' }));
  const t0 = performance.now();
  await api.syncSearchIndex({});
  const loadMs = performance.now() - t0;
  await api.listSessions({});
  return loadMs;
}
