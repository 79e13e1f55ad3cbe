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

/** The host calls; the writes are followed by `changed` (the search index catches up). */
export function hostApiOf(env: WorkerEnv & HostKeysEnv, changed: () => void) {
  let host: Promise<HostApi> | null = null;
  const load = () =>
    (host ??= Promise.all([import('./api.ts'), import('./keys.ts')]).then(([api, keys]) =>
      api.createHostApi({
        store: env.store,
        now: () => env.now(),
        randomId: () => env.randomId(),
        keys: env.modelKeys ?? (env.modelKeysDb ? keys.idbKeyStore(env.modelKeysDb) : keys.memoryKeyStore()),
        disk: attachmentDisk(env.searchDisk ?? keys.memoryDisk()),
      }),
    ));
  const call =
    <K extends keyof HostApi>(name: K, write = false) =>
    async (params: Parameters<HostApi[K]>[0], ctx?: CallContext): Promise<Awaited<ReturnType<HostApi[K]>>> => {
      const fn = (await load())[name] as (p: unknown, c?: CallContext) => Promise<Awaited<ReturnType<HostApi[K]>>>;
      return write ? fn(params, ctx).finally(changed) : fn(params, ctx);
    };
  return {
    modelProviders: call('modelProviders'),
    providerModels: call('providerModels'),
    saveModelProvider: call('saveModelProvider'),
    removeModelProvider: call('removeModelProvider'),
    sendMessage: call('sendMessage', true),
    compactSession: call('compactSession', true),
  };
}
