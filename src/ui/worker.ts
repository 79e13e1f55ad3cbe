import { connectWorker, WORKER_URL } from '../worker/client.ts';
import { trustedScriptURL } from './trusted-types.ts';

/** The page's single connection to the core worker. */
export const worker = connectWorker(trustedScriptURL(WORKER_URL));
