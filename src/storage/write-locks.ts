// A session's write lock as the store takes it (store.ts withWriteLock), and locks taken ahead.
//
// Holding a session's lock, any mark a dead writer left for it is settled before the caller reads
// sizes or bytes; a session not stored yet (an import's new session, the usual case) needs none of
// that, and the caller is told so (`absentUnderLock`), so it need not look again.
//
// Ahead (`reserve`): while an import writes one session it asks for the locks of the next few,
// looks for each one's file and, for a session not stored yet, names its file in the creation log
// and creates and opens it. Each of those is a round trip to the browser (about 2.5 ms a session in
// all on a profile on disk, as much as the raw write of a small session), and they now overlap the
// current session's work instead of following it. The first call in this store for a reserved
// session's lock uses the reservation, so a lock held ahead never waits for itself; the import lets
// go of those it did not use (`releaseAll`), removing the files it opened for them. A crash leaves
// those files named and not ended in the creation log, which recovery removes as for any new file.
//
// A lock let go has the end records of the files written under it on disk: every body held under
// a session's lock here ends with the creation log's `settle()` (creations.ts). A file opened
// ahead has its begin record written with the next record (or once its session is wanted).
//
// No deadlock between tabs: a lock is taken ahead only when it is free at once (never waited for),
// and before this store waits for a lock someone else holds it lets go of every lock it took ahead.
// So no writer waits while holding a lock another may be waiting for (two tabs importing the same
// sessions in other orders would otherwise each hold what the other waits for).
import type { Creation, CreationLog } from './creations.ts';
import type { Journal } from './journal.ts';
import { withLock, withLockIfFree } from './locks.ts';
import { baseId, sessionPath, writeLockName } from './names.ts';
import type { Disk, InPlaceFile } from './types.ts';

/** A new session's file created ahead under its lock, for `create` to write. */
export interface OpenedAhead {
  file: InPlaceFile;
  creation: Creation;
}

// What was found under a lock taken ahead: no file at the session's path (and the one opened there).
interface Look {
  absent: boolean;
  opened: OpenedAhead | null;
}

interface Ahead {
  /** What was found under the lock (null: not told), or false: the lock was taken. */
  held: Promise<Look | null | false>;
  granted: Look | null | false | undefined;
  cancelled: boolean;
  release: () => void;
  /** Its session is wanted now (its write, or let go): the begin record waits no longer. */
  want: () => void;
}

/** What the write locks need from the store. */
export interface WriteLockParts {
  disk: Disk;
  journal: Journal;
  creations: CreationLog;
  /** Writes in progress per session id in this store (their marks are not ours to settle). */
  active: Map<string, number>;
  /** The store is open (a dead writer's leftovers settled). */
  ready: () => Promise<void>;
  dropUnfinished: (names: string[]) => Promise<boolean>;
  settle: (id: string) => Promise<boolean>;
}

/** The store's write locks: `withWriteLock`, `reserve` ahead, `releaseAll`; `absentUnderLock` and `takeOpened` for `create`. */
export function createWriteLocks(p: WriteLockParts) {
  const { disk, journal, creations, active } = p;
  // Sessions whose file was absent when their write lock was taken here (and the lock is still held).
  const absentUnderLock = new Set<string>();
  const openedAhead = new Map<string, OpenedAhead>();
  const ahead = new Map<string, Ahead>();

  const drop = async (o: OpenedAhead) => {
    try {
      await o.file.discard();
    } finally {
      o.creation.end();
    }
  };

  // Under the lock of `base`, not stored yet: its file named in the creation log, created and opened.
  const look = async (base: string, wanted?: Promise<void>): Promise<Look> => {
    await p.ready();
    const path = sessionPath(base);
    if ((await disk.size(path)) !== null) return { absent: false, opened: null };
    if (!creations.usable || !disk.openInPlace) return { absent: true, opened: null };
    const creation = await creations.begin(path, wanted);
    try {
      return { absent: true, opened: { file: await disk.openInPlace(path), creation } };
    } catch {
      // Nothing left at `path` (openInPlace removes what it made): create() tries again and reports.
      creation.end();
      return { absent: true, opened: null };
    }
  };

  // Holding the lock of `id`'s session; `found`: what a reservation saw under it.
  const run = async <T>(id: string, fn: () => Promise<T>, found: Look | null, creating: boolean): Promise<T> => {
    const base = baseId(id);
    let opened = found?.opened ?? null;
    // A file opened ahead is only for the import that creates this session: anyone else sees none.
    if (opened && (id !== base || !creating)) {
      await drop(opened);
      opened = null;
    }
    // A session not stored yet (an import's new session, the usual case): no mark of a dead writer
    // bears on it (a mark's file exists; its variants are not read while it is absent), so the
    // journal is not listed, and family() need not look again. A variant's lock is its base's.
    const absent = id === base && (found ? found.absent : (await disk.size(sessionPath(id))) === null);
    if (absent) {
      absentUnderLock.add(id);
      if (opened) openedAhead.set(id, opened);
      try {
        return await fn();
      } finally {
        absentUnderLock.delete(id);
        const left = openedAhead.get(id);
        openedAhead.delete(id);
        if (left) await drop(left).catch(() => undefined);
      }
    }
    const names = await journal.names();
    // A dead writer's half-written new file (this one's, or any other's) goes first.
    await p.dropUnfinished(names);
    for (const marked of await journal.markedIds(names)) if (baseId(marked) === base && !active.has(marked)) await p.settle(marked);
    return fn();
  };

  // `fn` under a session's lock: the end records it left are written before the lock is let go.
  const settled = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } finally {
      creations.settle();
    }
  };

  const releaseAll = async (): Promise<void> => {
    const all = [...ahead.values()];
    ahead.clear();
    for (const r of all) {
      r.cancelled = true;
      r.want();
      const opened = r.granted ? r.granted.opened : null;
      if (opened) await drop(opened).catch(() => undefined);
    }
    // One write for the end records of the files dropped here and of the locks kept for theirs
    // (withWriteLock), which go with it.
    try {
      creations.settle();
    } catch {
      // Their waiters were told: an end record lost leaves its file to recovery, as a crash would.
    }
    for (const r of all) r.release();
  };

  return {
    absentUnderLock,

    /** Whether a new session `id` is being written under a lock held here (taken ahead, or held and its file absent). */
    writing: (id: string) => absentUnderLock.has(id) || ahead.has(id),

    /** The file opened ahead for new session `id` (the caller holds its lock and creates it), once. */
    takeOpened(id: string): OpenedAhead | null {
      const o = openedAhead.get(id) ?? null;
      openedAhead.delete(id);
      return o;
    },

    /** Runs `fn` holding the session's lock (a reservation's, when there is one); `creating`: `fn` may create it. */
    async withWriteLock<T>(id: string, fn: () => Promise<T>, signal?: AbortSignal, creating = false): Promise<T> {
      const r = ahead.get(baseId(id));
      if (r) {
        ahead.delete(baseId(id));
        r.want();
        const found = await r.held;
        if (found !== false) {
          try {
            return await run(id, fn, found, creating);
          } finally {
            // The end record it left is written with the import's next record, and the lock let go then.
            if (creations.pending()) void creations.whenWritten().then(r.release);
            else r.release();
          }
        }
      }
      // About to take a lock the usual way (and maybe wait): locks kept for their end records go first.
      if (creations.pending()) creations.settle();
      if (ahead.size) {
        // Taken at once if free; else the locks held ahead go before the wait (see the top).
        const out: T[] = [];
        const taken = await withLockIfFree(writeLockName(id), async () => {
          out.push(await settled(() => run(id, fn, null, creating)));
        });
        if (taken) return out[0];
        await releaseAll();
      }
      return withLock(writeLockName(id), () => settled(() => run(id, fn, null, creating)), 'exclusive', signal);
    },

    /** Takes the lock of session `id` (not a variant) ahead of its write when it is free, and looks and opens as above. */
    reserve(id: string): void {
      if (id !== baseId(id) || ahead.has(id)) return;
      let release = () => {};
      const gone = new Promise<void>((r) => (release = r));
      let want = () => {};
      const wanted = new Promise<void>((w) => (want = w));
      const r: Ahead = { held: Promise.resolve(false), granted: undefined, cancelled: false, release, want };
      r.held = new Promise((grant) => {
        const give = (v: Look | null | false) => {
          r.granted = v;
          grant(v);
        };
        // Let go (`gone`) once the end records of what was written under it are on disk (withWriteLock, releaseAll).
        withLockIfFree(writeLockName(id), async () => {
          const found = r.cancelled ? null : await look(id, wanted).catch(() => null);
          if (r.cancelled) {
            await settled(async () => found?.opened && (await drop(found.opened).catch(() => undefined)));
            return give(false);
          }
          give(found);
          await gone;
        }).then(
          (taken) => taken || give(false),
          () => give(false),
        );
      });
      ahead.set(id, r);
    },

    /** Lets go of every lock taken ahead and not used (the end of an import), removing files opened for them. */
    releaseAll,
  };
}
