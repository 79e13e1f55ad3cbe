// A worker thread that seals packs for the command line's engine (src/sync/seal.ts).
import { parentPort } from 'node:worker_threads';
import { answerSeal, type SealRequest } from '../sync/seal.ts';

parentPort?.on('message', async (req: SealRequest) => {
  const { answer, transfer } = await answerSeal(req);
  parentPort?.postMessage(answer, transfer);
});
