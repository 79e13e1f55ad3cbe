// The sync engine's local side over the library store. Other devices' versions go through the
// same rules as a drop: a new copy is an import (identical → nothing, a prefix → append, diverged →
// a variant beside it), an append extends a copy only while it still has the size the engine saw,
// and a deletion elsewhere moves the copy to the trash, where it can be brought back.
import type { LocalCopy, LocalSide } from '../../sync/index.ts';
import { baseId, piProjectDir } from '../../storage/names.ts';
import type { SessionStore } from '../../storage/types.ts';
import { indexAppend } from '../import/envelopes.ts';
import { importSessionBlob, type SessionSink } from '../import/session.ts';

/** A session another device deleted, moved to the trash here (the sync screen offers its undo). */
export interface TrashedBySync {
  id: string;
  title: string;
  undoToken: string;
  at: number;
}

export interface StoreLocalOptions {
  /** The search index's sink for new sessions (as an import feeds it). */
  sink?: (id: string) => SessionSink | null;
  /** Told of each copy the sync moved to the trash. */
  onTrashed?: (t: TrashedBySync) => void;
  /** Where the user's own deletions wait until the space has their trash records. */
  deleted?: { get(): Promise<LocalCopy[]>; set(list: LocalCopy[]): Promise<void> };
  now?: () => number;
}

/** Where a session lives as pi lays out its folder (`--home-me-proj--/<file>`), for a folder on the command line. */
function folderPath(cwd: string, storePath: string): string {
  return `${piProjectDir(cwd)}/${storePath.slice(storePath.lastIndexOf('/') + 1)}`;
}

class ChangedUnderUs extends Error {
  constructor(copy: string, size: number, expected: number) {
    super(`${copy} changed while syncing (${size} bytes, expected ${expected}); tried again next round`);
  }
}

export function storeLocal(store: SessionStore, opts: StoreLocalOptions = {}): LocalSide {
  const now = opts.now ?? Date.now;
  return {
    async list() {
      const out: LocalCopy[] = [];
      for (const s of await store.list()) out.push({ key: baseId(s.id), copy: s.id, size: s.size, path: folderPath(s.cwd, s.path) });
      return out;
    },

    read: (copy, start, end) => store.readRange(copy, start, end),

    async append(copy, expectedSize, bytes) {
      await store.withWriteLock(copy, async () => {
        const stored = await store.get(copy);
        if (!stored) throw new Error(`${copy} is no longer in the library`);
        if (stored.size !== expectedSize) throw new ChangedUnderUs(copy, stored.size, expectedSize);
        // The envelope index grows with the bytes, as an import's append does.
        const tail = await indexAppend(
          store,
          copy,
          stored.size,
          stored.size + bytes.length,
          (async function* () {
            yield bytes;
          })(),
        );
        await store.appendRaw(copy, tail.chunks);
        await tail.save(copy);
      });
      await store.flush();
    },

    async create(key, bytes, { path }) {
      // An import of the version: the store decides between a new session and a variant beside
      // the copies of `key` here, exactly as for a dropped file.
      const name = path ?? `${key}.jsonl`;
      const item = await importSessionBlob(name, new Blob([bytes as BlobPart]), { store, sink: opts.sink });
      await store.flush();
      if (item.outcome === 'rejected' || !item.id) throw new Error(`${name}: ${item.reason ?? 'not a session'}`);
      return item.id;
    },

    async trashedHere() {
      return (await opts.deleted?.get()) ?? [];
    },

    async trashSent(copies) {
      if (!opts.deleted) return;
      const sent = new Set(copies);
      await opts.deleted.set((await opts.deleted.get()).filter((c) => !sent.has(c.copy)));
    },

    async trash(copy) {
      const summary = await store.get(copy);
      if (!summary) return false;
      const undoToken = await store.withWriteLock(copy, () => store.trash(copy));
      await store.flush();
      opts.onTrashed?.({ id: copy, title: summary.title ?? summary.firstMessage ?? copy, undoToken, at: now() });
      return true;
    },
  };
}
