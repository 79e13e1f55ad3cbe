// The in-page half of profile-import.ts: the storage bench's inputs, one import worker, the raw baseline.
import { connectWorker } from '../../src/worker/client.ts';
import './buffer-shim.ts';
import { generateSessionText } from '../gen/session.ts';
import { deepNesting, FULL_SIZES, hugeLine, longChain } from '../core/read/bad-input-big.ts';
import { body } from './load-page.ts';
import { rawWriter, sessionGenerator } from './storage-page.ts';

let state: { big: File[]; folder: File[]; query: string; writer: ReturnType<typeof rawWriter>; n: number } | null = null;

/**
 * Makes the inputs and starts the import worker (which the Node side attaches its profiler to).
 * `gen`: the folder is the search bench's sessions instead (test/gen, `sessions` totalling `totalMb`).
 */
export async function setup(args: {
  sizeMb: number;
  folder: number;
  query: string;
  gen?: { sessions: number; totalMb: number };
  bad?: 'line' | 'chain' | 'nesting';
  load?: { sessions: number; totalMb: number };
}) {
  const { makeSession, rand } = sessionGenerator();
  const bad =
    args.bad && { line: () => hugeLine(FULL_SIZES.lineMb), chain: () => longChain(FULL_SIZES.chain), nesting: () => deepNesting(FULL_SIZES.depth) }[args.bad]();
  const big = bad ? [new File(bad.parts as BlobPart[], bad.name)] : [new File([makeSession('big-session', args.sizeMb * 1024 * 1024)], 'big.jsonl')];
  const folder: File[] = [];
  const gen = args.gen;
  if (args.load) {
    // The load bench's library: a header per session before one shared body.
    const shared = body(Math.floor((args.load.totalMb * 1024 * 1024) / args.load.sessions));
    for (let i = 0; i < args.load.sessions; i++) {
      const id = `10ad0000-0000-7000-8000-${i.toString().padStart(12, '0')}`;
      const header = `${JSON.stringify({ type: 'session', version: 3, id, timestamp: '2026-05-06T07:08:09.000Z', cwd: `/home/u/load/p${i % 20}`, title: `Load session ${i}` })}\n`;
      folder.push(new File([header, shared], `load-${i}.jsonl`));
    }
  } else if (gen) {
    const per = Math.floor((gen.totalMb * 1024 * 1024) / gen.sessions);
    for (let i = 0; i < gen.sessions; i++) {
      const text = generateSessionText({ seed: 1000 + i, targetBytes: per, flavor: i % 3 === 2 ? 'omp' : 'pi', startMs: Date.UTC(2025, 0, 1) + i * 3600_000 });
      folder.push(new File([text], `s${i}.jsonl`));
    }
  } else for (let i = 0; i < args.folder; i++) folder.push(new File([makeSession(`folder-${i}`, 5_000 + Math.floor(rand() * 95_000))], `s${i}.jsonl`));
  state = { big, folder, query: args.query, writer: rawWriter(), n: 0 };
  worker = new Worker(`/src/worker/main.ts?root=profile-${Date.now()}${args.query}`, { type: 'module' });
  api = connectWorker(worker);
  await api.ping({ message: 'ready' });
}

let worker: Worker | null = null;
let api: ReturnType<typeof connectWorker> | null = null;

/** ms of the raw write of one input set. */
export async function raw(which: 'big' | 'folder') {
  const s = state!;
  const t = performance.now();
  await s.writer.writeRaw(s[which], `profile-raw-${Date.now()}-${++s.n}`);
  return performance.now() - t;
}

/** ms of the import of one input set (each into the same store: distinct ids per set). */
export async function run(which: 'big' | 'folder') {
  const t = performance.now();
  await api!.importFiles({ files: state![which] });
  // As the load bench does after its import.
  if (which === 'folder') await api!.listSessions({});
  return performance.now() - t;
}
