// The share page's connection to its own worker. The reader's components import `worker` from
// src/ui/worker.ts; the share page's build points that import here (vite.share-page.ts), so the
// same reader talks to the page's worker instead of the app's. The worker's code is a gzip+base85
// block of the page; it starts once unpacked, and calls made before then wait for it.
import type { Api } from '../worker/api.ts';
import { connectWorker, type CallOptions, type Remote } from '../worker/client.ts';
import { gunzipChunks } from './gunzip.ts';
import { decodePart } from './worker/payload.ts';

/** The page worker's own calls, beside the reader API. */
export interface PayloadApi {
  addParts(params: { index: number; texts: string[] }, options?: CallOptions): Promise<number>;
  openPayload(params: { passphrase?: string }, options?: CallOptions): Promise<{ bytes: number }>;
}

/** The page's worker, once started. */
export type PageWorker = Remote<Api> & PayloadApi;

// Wrapped in an object: the remote answers every property, `then` included, so a promise must never resolve to it.
let started: ((link: { remote: PageWorker }) => void) | null = null;
const ready = new Promise<{ remote: PageWorker }>((resolve) => {
  started = resolve;
});

/** Starts the page's worker from the code in the page's `#rho-worker` block. */
export async function startPageWorker(): Promise<{ remote: PageWorker }> {
  const block = document.getElementById('rho-worker');
  if (!block?.textContent) throw new Error('This page has no worker: it is damaged.');
  const code = await gunzipChunks(decodePart(block.textContent.trim()));
  const url = URL.createObjectURL(new Blob(code, { type: 'text/javascript' }));
  const link = { remote: connectWorker(new Worker(url)) as unknown as PageWorker };
  started?.(link);
  return link;
}

/** The worker as the reader calls it: every call waits until the worker has started. */
export const worker = new Proxy({} as Remote<Api>, {
  get: (_target, method) =>
    typeof method === 'string'
      ? (params: unknown, options?: CallOptions) =>
          ready.then(({ remote }) => (remote as unknown as Record<string, (p: unknown, o?: CallOptions) => Promise<unknown>>)[method](params, options))
      : undefined,
});
