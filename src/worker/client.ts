import type { Api } from './api.ts';
// The worker's script URL, bundled by vite (`?worker&url`): the page signs it for Trusted Types before starting it.
import workerScript from './main.ts?worker&url';
import type { ApiError, ErrorCode, Progress, Request, Response } from './protocol.ts';

/** Options of one call from the page. */
export interface CallOptions {
  signal?: AbortSignal;
  onProgress?: (p: Progress) => void;
  transfer?: Transferable[];
}

/** The worker API as the page calls it: same names, params, and results; progress and abort as options. */
export type Remote<T> = {
  [K in keyof T]: T[K] extends (params: infer P, ...rest: never[]) => Promise<infer R> ? (params: P, options?: CallOptions) => Promise<R> : never;
};

/** An error from the worker, with the code, file and line it reported. */
export class RhoError extends Error implements ApiError {
  readonly code: ErrorCode;
  readonly file?: string;
  readonly line?: number;
  constructor(error: ApiError) {
    super(error.message);
    this.name = 'RhoError';
    this.code = error.code;
    this.file = error.file;
    this.line = error.line;
  }
}

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
  onProgress?: (p: Progress) => void;
}

/** The URL of the core worker's script. */
export const WORKER_URL: string = workerScript;

/**
 * Starts the worker (from a script URL, signed with the page's Trusted Types policy where the CSP
 * requires it) or connects to one already started, and returns its API. The only place the page
 * creates a Worker.
 */
export function connectWorker(script: Worker | string = WORKER_URL): Remote<Api> {
  // A TrustedScriptURL is an object, not a string: tell the two apart by what a Worker is.
  const worker = script instanceof Worker ? script : new Worker(script, { type: 'module' });
  let nextId = 1;
  const pending = new Map<number, Pending>();
  worker.addEventListener('message', (event: MessageEvent<Response>) => {
    const message = event.data;
    const call = pending.get(message.id);
    if (!call) return;
    if (message.kind === 'progress') return call.onProgress?.(message.progress);
    pending.delete(message.id);
    if (message.kind === 'result') call.resolve(message.value);
    else call.reject(new RhoError(message.error));
  });
  const call = (method: string, params: unknown, options: CallOptions = {}) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      if (options.signal?.aborted) return reject(new RhoError({ code: 'aborted', message: 'Cancelled.' }));
      options.signal?.addEventListener('abort', () => worker.postMessage({ kind: 'abort', id } satisfies Request), { once: true });
      pending.set(id, { resolve, reject, onProgress: options.onProgress });
      worker.postMessage({ kind: 'call', id, method, params } satisfies Request, options.transfer ?? []);
    });
  return new Proxy({} as Remote<Api>, {
    get: (_target, method) => (typeof method === 'string' ? (params: unknown, options?: CallOptions) => call(method, params, options) : undefined),
  });
}
