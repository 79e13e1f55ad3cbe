// The sync room inside the worker API: built over the library's store, feeding the search index's
// sink (what it gathered is written after each round that changed the library), and told of the
// user's deletions (each becomes a trash record for the other devices).
import { baseId } from '../../storage/names.ts';
import type { WorkerEnv } from '../env.ts';
import type { createLibraryApi } from '../library/api.ts';
import type { LibraryIndex } from '../search/library-index.ts';
import type { SealFn, SpaceSettings } from '../../sync/index.ts';
import { SyncRoom } from './room.ts';
import { memoryKeeping, type SyncKeeping } from './settings.ts';

/** What the sync room needs beyond the worker's env (its records; memory when absent). */
export interface SyncEnv {
  syncKeeping?: SyncKeeping;
  /** The name of the Web Lock every tab's rounds take (one per library). */
  syncLock?: string;
  /** The app's address, for the CORS rule "Check" shows. */
  origin?: string;
  /** How packs are encrypted (a pool of workers in the app; this thread when absent). */
  syncSeal?: SealFn;
  /** Makes a space's origin reachable before its requests (net/connect-list.ts). */
  syncReach?: (space: SpaceSettings) => Promise<void>;
}

export function wireSync(
  env: WorkerEnv & SyncEnv,
  library: ReturnType<typeof createLibraryApi>,
  index: Pick<LibraryIndex, 'sinkFor'> & { syncSoon(): void; commitGathered(): Promise<void> },
): SyncRoom {
  const room = new SyncRoom({
    store: env.store,
    keeping: env.syncKeeping ?? memoryKeeping(),
    sink: index.sinkFor,
    // The parts of the sessions the round added (made from the bytes it wrote, as an import's are)
    // go into the index now: otherwise they wait for the next import, and indexing reads those files again.
    onLibraryChanged: async () => {
      // A write that fails leaves those parts missing from the manifest: the sync below builds them from the files.
      await index.commitGathered().catch(() => undefined);
      index.syncSoon();
    },
    lockName: env.syncLock,
    seal: env.syncSeal,
    reach: env.syncReach,
    memoryOnly: env.memoryReason,
  });
  void room.load().catch(() => undefined);
  const remove = library.deleteSession;
  library.deleteSession = async (p, c) => {
    const s = await env.store.get(p.id);
    const done = await remove(p, c);
    if (s) await room.deletedHere({ key: baseId(s.id), copy: s.id, size: s.size }).catch(() => undefined);
    return done;
  };
  const undo = library.undoDelete;
  library.undoDelete = async (p, c) => {
    await undo(p, c);
    const id = /^\d+~(.+)\.jsonl$/.exec(p.undoToken)?.[1];
    if (id) await room.restoredHere(decodeURIComponent(id)).catch(() => undefined);
  };
  return room;
}
