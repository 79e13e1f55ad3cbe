/// <reference lib="webworker" />
// The share page's worker: the app's reader API (src/worker/reader/api.ts, the same view models,
// markdown renderer and image checks as the app) over one session held in memory, which the page
// hands over as its base85 parts: chunks unpacked as the reader reads them (../../worker/share/page-payload.ts),
// the rest in the background. It speaks the app's worker protocol, so the page uses client.ts.
import type { WorkerEnv } from '../../worker/env.ts';
import { ApiFailure, toApiError, type Request, type Response } from '../../worker/protocol.ts';
import { createReaderApi } from '../../worker/reader/api.ts';
import { gunzipBytes, openPayload, type PagePayload } from '../../worker/share/page-payload.ts';
import { decodePart, joinParts } from './payload.ts';

declare const self: DedicatedWorkerGlobalScope;

/** Turns an age file into what it holds, given its passphrase (null in pages that are not encrypted). */
export type Decrypt = ((bytes: Uint8Array, passphrase: string) => Promise<Uint8Array>) | null;

/** How long after the open the worker starts unpacking the chunks the first screen did not need. */
const UNPACK_REST_AFTER_MS = 1000;
/** Chunks unpacked before the reader's first calls: the first, and the last two (negative: from the end). */
const FIRST_SCREEN_CHUNKS = [0, -1, -2];

/** Serves the reader API over the page's one session; `decrypt` opens encrypted payloads. */
export function serve(decrypt: Decrypt): void {
  const parts: Uint8Array[] = [];
  let session: PagePayload | null = null;
  const opened = () => {
    if (!session) throw new ApiFailure('not-found', 'The session is not open yet.');
    return session;
  };

  /** The one session of the page, as the reader API reads sessions (no blobs: images travel inside the file). */
  const store = {
    readBytes: async () => opened().read(0, opened().size),
    rangeReader: async () => ({ size: opened().size, read: opened().read }),
    readEnvelopes: async () => {
      const index = opened().index;
      return index ? gunzipBytes(index) : null;
    },
    readBlob: async () => null,
    hasBlob: async () => false,
  } as unknown as WorkerEnv['store'];

  const api: Record<string, (params: never, ctx: never) => Promise<unknown>> = {
    ...createReaderApi({ store, now: () => new Date(), randomId: () => '00000000' }),

    /** Base64 parts of the payload, the first being part number `index`. */
    async addParts(params: { index: number; texts: string[] }) {
      params.texts.forEach((text, k) => {
        parts[params.index + k] = decodePart(String(text));
      });
      return params.texts.length;
    },

    /** Unpacks the payload (decrypting it first when a passphrase is given); the reader calls work from then on. */
    async openPayload(params: { passphrase?: string }) {
      if (session) return { bytes: session.size };
      let payload = joinParts(parts);
      if (typeof params.passphrase === 'string') {
        if (!decrypt) throw new ApiFailure('unsupported', 'This page is not encrypted.');
        payload = await decrypt(payload, params.passphrase);
      }
      const open = openPayload(payload);
      parts.length = 0;
      // What the first screen reads: the header (and the index's fingerprint) in the first chunk, the last messages in the last ones.
      await open.unpack(FIRST_SCREEN_CHUNKS);
      session = open;
      setTimeout(() => void open.unpackRest().catch(() => undefined), UNPACK_REST_AFTER_MS);
      return { bytes: open.size };
    },
  };

  function post(message: Response) {
    self.postMessage(message);
  }

  self.addEventListener('message', async (event: MessageEvent<Request>) => {
    const request = event.data;
    if (request.kind !== 'call') return;
    const { id, method, params } = request;
    try {
      const fn = api[method];
      if (typeof fn !== 'function') throw new Error(`Unknown method: ${method}`);
      const value = await fn(params as never, { signal: new AbortController().signal, progress: () => undefined } as never);
      post({ kind: 'result', id, value });
    } catch (e) {
      post({ kind: 'error', id, error: toApiError(e) });
    }
  });
}
