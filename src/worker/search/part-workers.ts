// The search index's builder worker (part.worker.ts), started by the library's worker on an import's
// first session, and watched: its answers, its errors, messages it or this side cannot read, and its
// life lock (part-answer.ts), which this side is given once the builder is gone however it went.
import type { PartAnswer, PartJobs } from './part-jobs.ts';
import { packedBuffers } from './part-jobs.ts';
import { type PartWorker, remoteParts } from './part-remote.ts';

/** A builder worker as this side holds it; `make` starts it under the name given (also its life lock's). */
export function builderWorker(make: (name: string) => Worker): PartWorker {
  const name = `rho-index-builder-${crypto.randomUUID()}`;
  const worker = make(name);
  let stopped = false;
  return {
    post: (request) => worker.postMessage(request, 'docs' in request ? packedBuffers(request.docs) : []),
    listen(onAnswer, onFailure) {
      worker.addEventListener('message', (e: MessageEvent<PartAnswer>) => {
        const a = e.data;
        // It holds its life lock: given to this side, it says the builder is gone.
        if (a && 'life' in a)
          void navigator.locks.request(name, () => {
            if (!stopped) onFailure(new Error("The search index's builder ended"));
          });
        onAnswer(a);
      });
      worker.addEventListener('error', (e) => {
        e.preventDefault();
        onFailure(new Error(`The search index's builder failed: ${e.message ?? 'it could not start'}`));
      });
      worker.addEventListener('messageerror', () => onFailure(new Error("The search index's builder's answer could not be read")));
    },
    stop() {
      stopped = true;
      worker.terminate();
    },
  };
}

/** Parts built in a Web Worker of their own (made on an import's first session). */
export function webParts(): PartJobs {
  return remoteParts(() => builderWorker((name) => new Worker(new URL('./part.worker.ts', import.meta.url), { type: 'module', name })));
}
