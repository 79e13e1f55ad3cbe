// The search index's builder worker (part.worker.ts), started by the library's worker on an import's first session.
import { type PartAnswer, type PartJobs, packedBuffers, remoteParts } from './part-jobs.ts';

/** Parts built in a Web Worker of their own (made on an import's first session). */
export function webParts(): PartJobs {
  return remoteParts(() => {
    const worker = new Worker(new URL('./part.worker.ts', import.meta.url), { type: 'module', name: 'rho-index' });
    return {
      post: (request) => worker.postMessage(request, packedBuffers(request.docs)),
      listen(onAnswer, onFailure) {
        worker.addEventListener('message', (e: MessageEvent<PartAnswer>) => onAnswer(e.data));
        worker.addEventListener('error', (e) => {
          e.preventDefault();
          worker.terminate();
          onFailure(new Error(`The search index's builder failed: ${e.message ?? 'it could not start'}`));
        });
        worker.addEventListener('messageerror', () => onFailure(new Error("The search index's builder could not read a message")));
      },
    };
  });
}
