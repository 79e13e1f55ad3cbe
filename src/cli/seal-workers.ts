// Sealing packs in Node worker threads (src/sync/seal.ts): encryption runs beside the thread that
// reads the folders and uploads. A worker keeps the process alive only while it holds a request.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { type SealPool, sealPool } from '../sync/index.ts';

// The command line runs its TypeScript through tsx: the worker registers tsx, then loads its entry.
const BOOT = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(
  new URL('./seal-worker.ts', import.meta.url).href,
)}); });`;

/** `size` workers (default: one per core beyond the first, at least one, at most two). */
export function nodeSealPool(size = Math.min(2, Math.max(1, availableParallelism() - 1))): SealPool {
  return sealPool(size, (onAnswer, onFailure) => {
    const worker = new Worker(BOOT, { eval: true });
    worker.unref();
    worker.on('message', onAnswer);
    worker.on('error', onFailure);
    worker.on('exit', (code) => onFailure(new Error(`a sealing worker stopped (exit ${code})`)));
    return {
      post: (req, transfer) => worker.postMessage(req, transfer),
      busy: (yes) => (yes ? worker.ref() : worker.unref()),
      terminate: () => void worker.terminate(),
    };
  });
}
