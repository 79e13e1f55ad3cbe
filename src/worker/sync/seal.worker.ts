/// <reference lib="webworker" />
// A worker that seals packs for the sync engine running in the library's worker (src/sync/seal.ts).
import { answerSeal, type SealRequest } from '../../sync/seal.ts';

declare const self: DedicatedWorkerGlobalScope;

self.addEventListener('message', async (event: MessageEvent<SealRequest>) => {
  const { answer, transfer } = await answerSeal(event.data);
  self.postMessage(answer, transfer);
});
