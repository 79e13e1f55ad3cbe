// The in-page half of line-cpu.ts: the worker's client is the served build's (`/src/worker/client.ts`),
// so any build's worker runs the same steps on the same inputs (the load bench's).
import { FULL_SIZES, hugeLine } from '../core/read/bad-input-big.ts';
import { body } from './load-page.ts';

const T = '2026-05-06T07:08:09.000Z';

type Api = {
  importFiles(p: { files: File[] }, o?: { onProgress?: (p: { done: number; total: number }) => void }): Promise<{ items: Array<{ outcome: string }> }>;
  listSessions(p: object): Promise<unknown[]>;
  syncSearchIndex(p: object): Promise<unknown>;
};
let api: Api | null = null;
let line: File | null = null;

/** The worker, and the load bench's library of `sessions` sessions totalling `totalMb` imported in one call and listed. */
export async function library(args: { sessions: number; totalMb: number }): Promise<number> {
  const { connectWorker } = (await import(/* @vite-ignore */ `${location.origin}/src/worker/client.ts`)) as {
    connectWorker(w: Worker): Api & { ping(p: object): Promise<unknown> };
  };
  const w = new Worker(`/src/worker/main.ts?root=line-cpu-${Date.now()}`, { type: 'module' });
  const remote = connectWorker(w);
  await remote.ping({ message: 'ready' });
  api = remote;
  const c = hugeLine(FULL_SIZES.lineMb);
  line = new File(c.parts as BlobPart[], c.name);
  if (!args.sessions) return 0;
  const shared = body(Math.floor((args.totalMb * 1024 * 1024) / args.sessions));
  const files: File[] = [];
  for (let i = 0; i < args.sessions; i++) {
    const id = `10ad0000-0000-7000-8000-${i.toString().padStart(12, '0')}`;
    const header = `${JSON.stringify({ type: 'session', version: 3, id, timestamp: T, cwd: `/home/u/load/p${i % 20}`, title: `Load session ${i}` })}\n`;
    files.push(new File([header, shared], `load-${i}.jsonl`));
  }
  const t = performance.now();
  await remote.importFiles({ files });
  await remote.listSessions({});
  return performance.now() - t;
}

/**
 * ms of the import of the full-size single-line session. `race`: the search index is asked to
 * follow the files once the import has written the session but not yet returned (where a sync
 * that a timer started would fall).
 */
export async function importLine(race = false): Promise<number> {
  const t = performance.now();
  let asked = false;
  const onProgress = (p: { done: number; total: number }) => {
    if (!race || asked || p.done < p.total) return;
    asked = true;
    void api!.syncSearchIndex({}).catch(() => undefined);
  };
  const r = await api!.importFiles({ files: [line!] }, { onProgress });
  if (r.items[0]?.outcome !== 'added') throw new Error(`the line was ${r.items[0]?.outcome}`);
  return performance.now() - t;
}
