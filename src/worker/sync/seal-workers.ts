// Sealing packs in Web Workers started by the library's worker (src/sync/seal.ts): a first sync
// encrypts on other cores while this worker reads, hashes and uploads.
import { type SealPool, sealPool } from '../../sync/index.ts';

/** `size` workers (default: one per core beyond the two the page and this worker use, 1 to 2). */
export function webSealPool(size = Math.min(2, Math.max(1, (navigator.hardwareConcurrency ?? 2) - 2))): SealPool {
  return sealPool(size, (onAnswer, onFailure) => {
    const worker = new Worker(new URL('./seal.worker.ts', import.meta.url), { type: 'module', name: 'rho-seal' });
    worker.addEventListener('message', (e) => onAnswer(e.data));
    worker.addEventListener('error', (e) => onFailure(new Error(`a sealing worker failed: ${e.message}`)));
    return { post: (req, transfer) => worker.postMessage(req, transfer), terminate: () => worker.terminate() };
  });
}
