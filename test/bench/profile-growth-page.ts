// The in-page half of profile-growth.ts: the storage bench's library of small sessions, then the
// storage bench's folder imported by a fresh worker into an empty folder or into that library.
import { connectWorker } from '../../src/worker/client.ts';
import { sessionGenerator } from './storage-page.ts';

const { makeSession, rand } = sessionGenerator();
let folder: File[] = [];
let library = '';
let round = 0;
let current: { w: Worker; api: ReturnType<typeof connectWorker> } | null = null;

const startApi = async (rootName: string) => {
  const w = new Worker(`/src/worker/main.ts?root=${rootName}`, { type: 'module' });
  const api = connectWorker(w);
  await api.ping({ message: 'ready' });
  return { w, api };
};

/** The library of `count` sessions of 2 KB (imported in one call, as the bench's), and the folder's sizes. */
export async function setup(args: { count: number; folder: number }): Promise<void> {
  folder = [];
  for (let i = 0; i < args.folder; i++) folder.push(new File([makeSession(`folder-${i}`, 5_000 + Math.floor(rand() * 95_000))], `s${i}.jsonl`));
  library = `growthlib-${Date.now()}`;
  const many: File[] = [];
  for (let i = 0; i < args.count; i++) many.push(new File([makeSession(`list-${i}`, 2_000)], `l${i}.jsonl`));
  const { w, api } = await startApi(library);
  let seen = 0;
  console.log('growth: library import starts');
  await api.importFiles(
    { files: many },
    { onProgress: (p: { label?: string }) => p.label && ++seen % 200 === 0 && console.log(`growth: ${seen} reports, at ${p.label}`) },
  );
  console.log('growth: library imported');
  w.terminate();
}

/** Starts the worker of one side (its root's name says which: the profiler attaches to it). */
export async function open(which: 'empty' | 'library'): Promise<string> {
  round++;
  const rootName = which === 'empty' ? `growthempty-${Date.now()}-${round}` : library;
  current = await startApi(rootName);
  return rootName;
}

/** Imports the folder (new ids each round) with the worker `open` started: ms. */
export async function run(): Promise<number> {
  const copy = folder.map((f, i) => new File([makeSession(`grown-${round}-${i}`, f.size)], f.name));
  const t = performance.now();
  const report = await current!.api.importFiles({ files: copy });
  const ms = performance.now() - t;
  if (report.items.some((i: { outcome: string }) => i.outcome !== 'added')) throw new Error('not every file was added');
  return ms;
}

/** Ends the worker `open` started (after its profile was taken). */
export function close(): void {
  current?.w.terminate();
  current = null;
}
