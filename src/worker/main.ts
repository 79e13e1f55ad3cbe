/// <reference lib="webworker" />
import { createApi } from './api.ts';
import { createPlaceholderStore } from './memory-store.ts';
import { toApiError, type Request, type Response } from './protocol.ts';

declare const self: DedicatedWorkerGlobalScope;

const api = createApi({
  store: createPlaceholderStore(),
  now: () => new Date(),
  randomId: () => crypto.randomUUID().slice(0, 8),
}) as Record<string, (params: unknown, ctx: unknown) => Promise<unknown>>;
const running = new Map<number, AbortController>();

function post(message: Response, transfer: Transferable[] = []) {
  self.postMessage(message, transfer);
}

self.addEventListener('message', async (event: MessageEvent<Request>) => {
  const request = event.data;
  if (request.kind === 'abort') {
    running.get(request.id)?.abort();
    return;
  }
  const { id, method, params } = request;
  const controller = new AbortController();
  running.set(id, controller);
  try {
    const fn = api[method];
    if (typeof fn !== 'function') throw new Error(`Unknown worker method: ${method}`);
    const value = await fn(params, {
      signal: controller.signal,
      progress: (progress: unknown) => post({ kind: 'progress', id, progress: progress as never }),
    });
    post({ kind: 'result', id, value });
  } catch (e) {
    post({ kind: 'error', id, error: toApiError(e) });
  } finally {
    running.delete(id);
  }
});
