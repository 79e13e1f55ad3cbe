import { createMemoryDisk } from '../../storage/memory-disk.ts';
import { hasOpfs, openOpfsDisk } from '../../storage/opfs-disk.ts';
import { createStore, type StoreOptions } from '../../storage/store.ts';
import type { Disk, SessionStore } from '../../storage/types.ts';
import { readAnyFormat } from '../import/reading.ts';

/** The channel other tabs listen on for `{ type: 'changed', ids }` after every write. */
export const CHANGES_CHANNEL = 'rho-sessions';

/** A change notice as it goes over the BroadcastChannel. */
export interface ChangedMessage {
  type: 'changed';
  ids: string[];
}

/**
 * The worker's store: OPFS when this worker can use sync access handles, else memory (some private
 * windows), in which case `store.persistent` is false and the UI says nothing will be kept.
 */
export async function openWorkerStore(options: StoreOptions & { opfsRoot?: string } = {}): Promise<SessionStore> {
  return (await openWorkerStorage(options)).store;
}

/**
 * The worker's store and the disk under it (the search index keeps its parts there too). A store
 * held in memory comes with `memoryReason`, why OPFS was not used: the worker passes it on (the
 * library says nothing will be kept, sync refuses to fill a library a reload would empty).
 */
export async function openWorkerStorage(
  options: StoreOptions & { opfsRoot?: string } = {},
): Promise<{ store: SessionStore; disk: Disk; memoryReason?: string }> {
  const channel = typeof BroadcastChannel !== 'undefined' ? new BroadcastChannel(CHANGES_CHANNEL) : null;
  const onChange = (ids: string[]) => {
    channel?.postMessage({ type: 'changed', ids } satisfies ChangedMessage);
    options.onChange?.(ids);
  };
  let memoryReason = 'this browser offers no private file system to this worker';
  if (hasOpfs()) {
    try {
      const disk = await openOpfsDisk(options.opfsRoot);
      return { store: createStore(disk, { reader: readAnyFormat, ...options, onChange }), disk };
    } catch (e) {
      // OPFS refused (a private window, a storage policy): memory, and the reason goes with it.
      memoryReason = `the private file system refused to open (${(e as Error)?.name ?? 'Error'}: ${(e as Error)?.message ?? e})`;
    }
  }
  console.warn(`Sessions are held in memory only: ${memoryReason}.`);
  const disk = createMemoryDisk();
  return { store: createStore(disk, { reader: readAnyFormat, ...options, onChange }), disk, memoryReason };
}
