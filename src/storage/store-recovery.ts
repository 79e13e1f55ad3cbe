// What a dead writer left, settled by the store (store.ts): a half-done append rolled back (its
// journal mark), a new file begun and not ended in a creation log removed, and the index told.
import type { createCreationLog } from './creations.ts';
import { envelopePath } from './envelope-index.ts';
import { journalPath, type Journal } from './journal.ts';
import { withLockIfFree } from './locks.ts';
import { idFromFileName, SESSIONS_DIR, sessionPath, writeLockName } from './names.ts';
import type { createIndexState } from './store-index.ts';
import type { Disk } from './types.ts';

interface RecoveryParts {
  disk: Disk;
  journal: Journal;
  creations: ReturnType<typeof createCreationLog>;
  index: ReturnType<typeof createIndexState>;
  /** Writes in progress per session id in this store (their marks are not ours to settle). */
  active: Map<string, number>;
}

/** The store's recovery: `settle` one session, `dropUnfinished` files of dead creation logs, `recover` all at open. */
export function createRecovery({ disk, journal, creations, index, active }: RecoveryParts) {
  const { flush, record, rescan } = index;

  // Settles what a dead writer left for one session (the caller holds its write lock): a half-done
  // append is rolled back, and the file is re-read into the index. Returns whether it re-read.
  const settle = async (id: string): Promise<boolean> => {
    const mark = await journal.readMark(id);
    if (!mark) return false;
    const path = sessionPath(id);
    await journal.rollBack(path, mark);
    if ((await disk.size(path)) === null) {
      await disk.remove(journalPath(id));
      return false;
    }
    const known = index.pendingOf(id) ?? (await index.readIndexFile())?.get(id);
    await rescan(id, path, known?.variantOf);
    if (!mark.done) await journal.writeMark(id, { size: null, done: true });
    return true;
  };

  // New files a dead writer's creation log names as begun and not ended: removed (with any stored
  // envelope index of theirs), and out of the index. Returns whether there were any.
  const dropUnfinished = async (names: string[]): Promise<boolean> => {
    const removed = await creations.recover(names);
    for (const path of removed) {
      const id = idFromFileName(path.slice(SESSIONS_DIR.length + 1));
      if (id === null) continue;
      await disk.remove(envelopePath(id));
      if (index.pendingOf(id) || (await index.readIndexFile())?.has(id)) record(null, id);
    }
    return removed.length > 0;
  };

  // Sessions a dead writer left marks for, settled when the store opens. A session whose lock is
  // taken is skipped: its live writer (or this worker, mid-call) settles it on taking the lock.
  const recover = async () => {
    const names = await journal.names();
    let found = await dropUnfinished(names);
    for (const id of await journal.markedIds(names)) {
      if (active.has(id)) continue;
      // Another worker of this origin may be settling it right now (two tabs opening after a
      // crash): wait a moment for it, so the first list already tells the truth.
      await withLockIfFree(
        writeLockName(id),
        async () => {
          if (await settle(id)) found = true;
        },
        2000,
      );
    }
    if (found) await flush();
  };

  return { settle, dropUnfinished, recover };
}
