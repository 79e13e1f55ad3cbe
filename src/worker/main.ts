/// <reference lib="webworker" />
import { createStore as createKeyval, get, set } from 'idb-keyval';
import { createApi } from './api.ts';
import type { FolderState } from './linked/plan.ts';
import { openWorkerStorage } from './library/open-store.ts';
import { toApiError, type Request, type Response } from './protocol.ts';

declare const self: DedicatedWorkerGlobalScope;

// The listener is installed at once (messages sent before it would be lost); calls wait for the store.
// A worker started as `main.ts?root=<name>` keeps its files under that OPFS folder (tests use it).
const opfsRoot = new URL(self.location.href).searchParams.get('root') ?? undefined;
// What each linked folder's last sync saw (per OPFS root, so tests' workers keep theirs apart).
const linkedDb = createKeyval(`rho-linked${opfsRoot ? `-${opfsRoot}` : ''}`, 'state');
const linkedState = { get: (key: string) => get<FolderState>(key, linkedDb), set: (key: string, state: FolderState) => set(key, state, linkedDb) };
const ready = openWorkerStorage({ opfsRoot }).then(
  ({ store, disk }) =>
    createApi({
      store,
      searchDisk: disk,
      // `main.ts?index=later`: imports leave indexing to the sync after them (the search bench's baseline).
      indexAtImport: new URL(self.location.href).searchParams.get('index') !== 'later',
      linkedState,
      now: () => new Date(),
      randomId: () => crypto.randomUUID().slice(0, 8),
    }) as Record<string, (params: unknown, ctx: unknown) => Promise<unknown>>,
);
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
    const api = await ready;
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
