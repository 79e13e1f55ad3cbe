/// <reference lib="webworker" />
import { createStore as createKeyval, del, get, set } from 'idb-keyval';
import { writeConnectOrigins } from '../storage/connect-origins.ts';
import { guardFetch } from './net/fetch-guard.ts';
import { createApi } from './api.ts';
import type { FolderState } from './linked/plan.ts';
import { openWorkerStorage } from './library/open-store.ts';
import { webParts } from './search/part-workers.ts';
import { webSealPool } from './sync/seal-workers.ts';
import { idbKeeping } from './sync/settings.ts';
import { toApiError, type Request, type Response } from './protocol.ts';

declare const self: DedicatedWorkerGlobalScope;

// The worker's body, loaded by its entry (main.ts), which holds the messages that came first.
// Calls wait for the store. A worker started as `main.ts?root=<name>` keeps its files under that OPFS folder (tests use it).
const opfsRoot = new URL(self.location.href).searchParams.get('root') ?? undefined;
// What each linked folder's last sync saw (per OPFS root, so tests' workers keep theirs apart).
const linkedDb = createKeyval(`rho-linked${opfsRoot ? `-${opfsRoot}` : ''}`, 'state');
const linkedState = { get: (key: string) => get<FolderState>(key, linkedDb), set: (key: string, state: FolderState) => set(key, state, linkedDb) };
// The sync space's settings, credentials and key: read only here, in the worker.
const syncDb = createKeyval(`rho-sync${opfsRoot ? `-${opfsRoot}` : ''}`, 'sync');
const syncKeeping = idbKeeping({ get: (k) => get(k, syncDb), set: (k, v) => set(k, v, syncDb), del: (k) => del(k, syncDb) });
// The origins this library may reach, as this worker last wrote them: checked here too, since a worker
// started before the service worker controlled the page is never controlled by it.
let reachable: ReadonlySet<string> = new Set();
guardFetch(self, () => reachable);
const ready = openWorkerStorage({ opfsRoot }).then(
  ({ store, disk, memoryReason }) =>
    createApi({
      store,
      searchDisk: disk,
      memoryReason,
      // `main.ts?index=later`: imports leave indexing to the sync after them (the search bench's baseline).
      // The search index's parts of imported sessions are built in a worker of their own (another core).
      searchParts: webParts(),
      indexAtImport: new URL(self.location.href).searchParams.get('index') !== 'later',
      linkedState,
      syncKeeping,
      syncLock: `rho-sessions:sync${opfsRoot ? `:${opfsRoot}` : ''}`,
      origin: self.location.origin,
      // Packs are encrypted in workers of their own (made on the first upload).
      syncSeal: webSealPool().seal,
      // Model providers and their keys: on this device only, read in this worker.
      modelKeysDb: `rho-models${opfsRoot ? `-${opfsRoot}` : ''}`,
      // The origins the service worker lets this library's requests reach (src/sw/connect-guard.ts).
      connectOrigins: async (origins) => {
        await writeConnectOrigins(opfsRoot ?? '', origins);
        reachable = new Set(origins);
      },
      now: () => new Date(),
      randomId: () => crypto.randomUUID().slice(0, 8),
    }) as Record<string, (params: unknown, ctx: unknown) => Promise<unknown>>,
);
const running = new Map<number, AbortController>();

function post(message: Response, transfer: Transferable[] = []) {
  self.postMessage(message, transfer);
}

/** Answers one message of the page (a call, or the abort of one). */
async function handle(event: MessageEvent<Request>) {
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
}

/** From now on answers every message, beginning with `held` (those that came before, in order). */
export function serve(held: MessageEvent<Request>[]): void {
  self.addEventListener('message', (event: MessageEvent<Request>) => void handle(event));
  for (const event of held) void handle(event);
}
