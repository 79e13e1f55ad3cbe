// The in-page half of import-growth.ts (served by vite): imports small generated sessions through
// the real worker into a fresh OPFS folder, and times each file (from the worker's progress, which
// reports every file's start) and each call.
import { connectWorker, type Remote } from '../../src/worker/client.ts';
import type { Api } from '../../src/worker/api.ts';

let api: Remote<Api>;
let worker: Worker;
let root = '';
let texts: string[] = [];
let next = 0;
const take = (n: number) => Array.from({ length: n }, () => new File([texts[next]], `g${next++}.jsonl`));

/** A worker on a fresh OPFS folder; the sessions' texts come from Node (the generator uses Buffer). */
export async function start(t: string[]): Promise<void> {
  texts = t;
  next = 0;
  root = `growth-${Date.now()}`;
  worker = new Worker(`/src/worker/main.ts?root=${root}`, { type: 'module' });
  api = connectWorker(worker);
  await api.ping({ message: 'ready' });
}

/** One call of `count` files: its time, and ms a file for each window of `window` files (from when each file's first progress report arrived). */
export async function oneCall(count: number, window: number): Promise<{ ms: number; windows: number[] }> {
  const files = take(count);
  const started = new Map<string, number>();
  const t0 = performance.now();
  const report = await api.importFiles(
    { files },
    {
      onProgress: (p) => {
        if (p.label !== undefined && !started.has(p.label)) started.set(p.label, performance.now());
      },
    },
  );
  const ms = performance.now() - t0;
  if (report.items.some((i) => i.outcome !== 'added')) throw new Error('not every file was added');
  const at = files.map((f) => started.get(f.name) ?? Number.NaN);
  const windows: number[] = [];
  for (let k = 0; k + window < count; k += window) windows.push((at[k + window] - at[k]) / window);
  return { ms, windows };
}

/** `calls` calls of `batch` files each (a drop at a time): ms a file of each. */
export async function calls(calls: number, batch: number): Promise<number[]> {
  const out: number[] = [];
  for (let c = 0; c < calls; c++) {
    const t = performance.now();
    await api.importFiles({ files: take(batch) });
    out.push((performance.now() - t) / batch);
  }
  return out;
}

/** index.json's size; then the worker ends and its folder goes. */
export async function finish(): Promise<number> {
  const opfs = await navigator.storage.getDirectory();
  const bytes = (await (await (await opfs.getDirectoryHandle(root)).getFileHandle('index.json')).getFile()).size;
  worker.terminate();
  await opfs.removeEntry(root, { recursive: true }).catch(() => undefined);
  return bytes;
}
