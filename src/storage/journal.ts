// The store's journal: one small file per session being appended to or replaced, written before the
// write ("writing", with the size to roll back to) and turned into "done" after it, removed once the
// index holds the result. A worker that dies mid-write leaves it behind; the next writer of that
// session, or the next store to open, rolls a half-done append back (old state) and re-reads the
// file into the index (store.ts `settle`).
import { once } from './chunks.ts';
import { isCreationLog } from './creations.ts';
import type { Disk } from './types.ts';

/** The directory of journal marks. */
export const JOURNAL_DIR = 'journal';

/** One session's mark: the size to cut back to (an append), and whether the write completed. */
export interface JournalMark {
  size: number | null;
  done: boolean;
}

/** Where session `id`'s mark lives. */
export const journalPath = (id: string) => `${JOURNAL_DIR}/${encodeURIComponent(id)}`;

/**
 * The marks of a disk. `active` counts the writes in progress per session id in this store: their
 * marks are not another writer's leftovers.
 */
export function createJournal(disk: Disk, active: Map<string, number>) {
  const readMark = async (id: string): Promise<JournalMark | null> => {
    try {
      const m = JSON.parse(new TextDecoder().decode(await disk.read(journalPath(id)))) as JournalMark;
      return m && typeof m === 'object' && typeof m.done === 'boolean' ? m : null;
    } catch {
      return null;
    }
  };
  const writeMark = (id: string, mark: JournalMark) => disk.writeNew(journalPath(id), once(new TextEncoder().encode(JSON.stringify(mark))));

  // Undoes what a writer that died left half done: an append is cut back to the size before it.
  const rollBack = async (path: string, mark: JournalMark | null) => {
    if (!mark || mark.done || mark.size === null) return;
    const size = await disk.size(path);
    if (size !== null && size > mark.size) await disk.truncate(path, mark.size);
  };

  return {
    readMark,
    writeMark,
    rollBack,
    /** Removes a session's mark (no error when there is none). */
    drop: (id: string) => disk.remove(journalPath(id)).catch(() => undefined),

    /**
     * Around every in-place write of a session (the caller holds its write lock, so a "writing" mark
     * found here was left by a writer that died).
     */
    async journaled<T>(id: string, path: string, kind: 'append' | 'replace', write: () => Promise<T>): Promise<T> {
      active.set(id, (active.get(id) ?? 0) + 1);
      try {
        await rollBack(path, await readMark(id));
        await writeMark(id, { size: kind === 'append' ? await disk.size(path) : null, done: false });
        let result: T;
        try {
          result = await write();
        } catch (e) {
          // The disk cut a failed append back itself (and a failed replace never swapped): nothing changed.
          await disk.remove(journalPath(id)).catch(() => undefined);
          throw e;
        }
        // Done: from now on a crash only leaves the index behind, which a re-read fixes. A full disk
        // may refuse even this small write: then the mark goes (it must never roll back a whole write).
        await writeMark(id, { size: null, done: true }).catch(() => disk.remove(journalPath(id)));
        return result;
      } finally {
        active.set(id, (active.get(id) ?? 1) - 1);
        if (active.get(id) === 0) active.delete(id);
      }
    },

    /** The names in the journal's directory: marks, and creation logs (creations.ts). */
    names: () => disk.names(JOURNAL_DIR),

    /** The session ids that have journal marks (among `names`, when the directory was just read). */
    async markedIds(names?: string[]): Promise<string[]> {
      const ids: string[] = [];
      for (const name of names ?? (await disk.names(JOURNAL_DIR))) {
        if (isCreationLog(name)) continue;
        try {
          ids.push(decodeURIComponent(name));
        } catch {
          // Not a name we wrote.
        }
      }
      return ids;
    },
  };
}

/** A store's journal. */
export type Journal = ReturnType<typeof createJournal>;
