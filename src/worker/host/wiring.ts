// The host room in the worker's API, loaded on its first call (it brings pi-ai and the whole core
// with it, which a reader never needs): keys from IndexedDB (memory in Node tests), attachment
// copies on the store's disk, and the search index told after each write.
import type { Disk } from '../../storage/types.ts';
import type { WorkerEnv } from '../env.ts';
import type { CallContext } from '../protocol.ts';
import type { createHostApi } from './api.ts';
import type { KeyStore } from './keys.ts';

/** What the worker's entry adds for the host room. */
export interface HostKeysEnv {
  /** Where the model providers and keys live (Node tests: memory). */
  modelKeys?: KeyStore;
  /** Or the IndexedDB database that holds them (main.ts). */
  modelKeysDb?: string;
}

type HostApi = ReturnType<typeof createHostApi>;

function attachmentDisk(disk: Disk) {
  return {
    async writeFile(path: string, bytes: Uint8Array) {
      await disk.writeNew(
        path,
        (async function* () {
          yield bytes;
        })(),
      );
    },
  };
}

/**
 * The host calls; the writes are followed by `changed` (the search index catches up), a change of
 * the providers by `providersChanged` (awaited: the origins the app may reach follow them).
 */
export function hostApiOf(env: WorkerEnv & HostKeysEnv, changed: () => void, providersChanged: () => Promise<void> = async () => undefined) {
  let host: Promise<HostApi> | null = null;
  let keyStore: Promise<KeyStore> | null = null;
  const keysOf = () =>
    (keyStore ??= import('./keys.ts').then((keys) => env.modelKeys ?? (env.modelKeysDb ? keys.idbKeyStore(env.modelKeysDb) : keys.memoryKeyStore())));
  const load = () =>
    (host ??= Promise.all([import('./api.ts'), import('./keys.ts'), keysOf()]).then(([api, keys, store]) =>
      api.createHostApi({
        store: env.store,
        now: () => env.now(),
        randomId: () => env.randomId(),
        keys: store,
        disk: attachmentDisk(env.searchDisk ?? keys.memoryDisk()),
      }),
    ));
  const call =
    <K extends keyof HostApi>(name: K, write = false) =>
    async (params: Parameters<HostApi[K]>[0], ctx?: CallContext): Promise<Awaited<ReturnType<HostApi[K]>>> => {
      const fn = (await load())[name] as (p: unknown, c?: CallContext) => Promise<Awaited<ReturnType<HostApi[K]>>>;
      return write ? fn(params, ctx).finally(changed) : fn(params, ctx);
    };
  const changing =
    <K extends 'saveModelProvider' | 'removeModelProvider'>(name: K) =>
    async (params: Parameters<HostApi[K]>[0], ctx?: CallContext) => {
      const r = await call(name)(params, ctx);
      await providersChanged();
      return r;
    };
  return {
    /** The providers as stored, with their keys: for the worker only, never in the API. */
    providers: async () => (await keysOf()).list(),
    calls: {
      modelProviders: call('modelProviders'),
      providerModels: call('providerModels'),
      saveModelProvider: changing('saveModelProvider'),
      removeModelProvider: changing('removeModelProvider'),
      sendMessage: call('sendMessage', true),
      compactSession: call('compactSession', true),
    },
  };
}
