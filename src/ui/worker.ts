import { connectWorker } from '../worker/client.ts';

/** The page's single connection to the core worker. */
export const worker = connectWorker();
