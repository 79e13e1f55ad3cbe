// The store's creation log: a new session is written straight into sessions/ (no temp file, no move,
// which cost as much as writing a small session), so a crash can leave it half written. Before
// each such file is started its path is added to the log ("+path"), and once it is whole and
// flushed, and before its write lock is let go, "-path" follows. One log serves every new session
// of a worker's import batch: it stays open (a sync handle, each record one small write) under a
// Web Lock of its own, and is removed when the batch ends. A store that finds a log whose lock is
// free knows its writer died: every path begun and not ended there is removed (journal.ts has
// the marks of appends and replaces; this is the same for creations).
//
// On a full disk: the log is grown ahead in steps, and room for a file's end record is taken
// before its start record is written, so ending a record never needs room the disk may not have.
// Why no fsync per record: the log's record is written before the session file is created, and
// both are only seen after a crash of the OS in that order (metadata is journaled in order); a
// crash of the page or the browser keeps what was written.
import { withLock, withLockIfFree } from './locks.ts';
import { SESSIONS_DIR } from './names.ts';
import type { Disk, LogFile } from './types.ts';

/** Log names start with "+", which a journal mark's name (encodeURIComponent of an id) never holds. */
export const CREATION_PREFIX = '+create-';

// Held by a log's writer for as long as the log is open (its death lets it go).
const lockOf = (name: string) => `rho-sessions:create:${name}`;
// Held while a dead writer's log is settled: a second store waits for it rather than taking the
// writer's lock for a live one and going on while the first is still removing a file it may be about to use.
const recoverLockOf = (name: string) => `rho-sessions:create-recover:${name}`;
const encoder = new TextEncoder();
/** The log grows by this much at a time (zeros, ignored when read). */
const GROW = 16 * 1024;

/** Whether a journal/ name is a creation log. */
export const isCreationLog = (name: string) => name.startsWith(CREATION_PREFIX);

/** One new file being written under the log: end it once it is whole (or gone). */
export interface Creation {
  /** The file is whole and flushed (or was removed after a failure): recovery must leave it. */
  end(): void;
}

/**
 * The creation log of one store over `disk` in `dir` (the journal's directory). `begin` is used only
 * by a caller that holds the session's write lock and has seen that no file is at `path`.
 */
export function createCreationLog(disk: Disk, dir: string, now: () => number) {
  type Open = { name: string; file: LogFile; at: number; size: number; release: () => void };
  let current: Promise<Open> | null = null;
  let users = 0;
  const mine = new Set<string>();

  const start = async (): Promise<Open> => {
    const name = `${CREATION_PREFIX}${now()}-${Math.random().toString(16).slice(2, 10)}`;
    mine.add(name);
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    // Held for as long as the log is open: its writer's death lets it go, which is how others tell.
    await new Promise<void>((granted) => {
      void withLock(lockOf(name), () => {
        granted();
        return held;
      });
    });
    try {
      const file = await disk.openLog!(`${dir}/${name}`);
      return { name, file, at: 0, size: 0, release };
    } catch (e) {
      release();
      mine.delete(name);
      throw e;
    }
  };

  const write = (log: Open, text: string) => {
    log.at += log.file.write(text);
  };

  return {
    /** Whether this store can write new files in place (the disk offers it). */
    usable: Boolean(disk.writeInPlace && disk.openLog),

    /** Names `path` in the log before it is written; may throw QuotaExceededError (nothing written yet). */
    async begin(path: string): Promise<Creation> {
      users++;
      let log: Open;
      try {
        current ??= start().catch((e) => {
          current = null;
          throw e;
        });
        log = await current;
        // "+path\n" and "-path\n".
        const need = 2 * (encoder.encode(path).length + 2);
        // Room for the end record too, taken now: ending never needs room the disk may not have.
        if (log.at + need > log.size) {
          const grown = Math.max(log.size + GROW, log.at + need);
          log.file.reserve(grown);
          log.size = grown;
        }
        write(log, `+${path}`);
      } catch (e) {
        users--;
        throw e;
      }
      let ended = false;
      return {
        end() {
          if (ended) return;
          ended = true;
          users--;
          write(log, `-${path}`);
        },
      };
    },

    /** Closes and removes the log when no file is being written under it (at the end of an import batch). */
    async close(): Promise<void> {
      if (!current || users > 0) return;
      const log = await current.catch(() => null);
      if (!log || users > 0) return;
      current = null;
      log.file.close();
      await disk.remove(`${dir}/${log.name}`).catch(() => undefined);
      mine.delete(log.name);
      log.release();
    },

    /**
     * Settles the logs of dead writers among `names` (journal/ names): removes every file they began
     * and did not end, then the log. Returns the session paths removed. A live writer's log (its
     * lock taken, or this store's own) is left alone.
     */
    async recover(names: string[]): Promise<string[]> {
      const removed: string[] = [];
      for (const name of names) {
        if (!isCreationLog(name) || mine.has(name)) continue;
        await withLock(recoverLockOf(name), () =>
          withLockIfFree(lockOf(name), async () => {
            const path = `${dir}/${name}`;
            let text = '';
            try {
              text = new TextDecoder().decode(await disk.read(path));
            } catch {
              // Gone already (another store settled it).
              return;
            }
            const open = new Map<string, number>();
            for (const raw of text.split('\n')) {
              const line = raw.replace(/\0/g, '');
              const p = line.slice(1);
              if (!p.startsWith(`${SESSIONS_DIR}/`) || p.includes('/', SESSIONS_DIR.length + 1)) continue;
              if (line[0] === '+') open.set(p, (open.get(p) ?? 0) + 1);
              else if (line[0] === '-') open.set(p, (open.get(p) ?? 0) - 1);
            }
            for (const [p, n] of open) {
              if (n <= 0) continue;
              await disk.remove(p);
              removed.push(p);
            }
            await disk.remove(path);
          }),
        );
      }
      return removed;
    },
  };
}

/** A store's creation log. */
export type CreationLog = ReturnType<typeof createCreationLog>;
