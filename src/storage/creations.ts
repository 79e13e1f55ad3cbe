// The store's creation log: a new session is written straight into sessions/ (no temp file, no move,
// which cost as much as writing a small session), so a crash can leave it half written. Before
// each such file is started its path is added to the log ("+path"), and once it is whole and
// flushed, and before its write lock is let go, "-path" follows. One log serves every new session
// of a worker's import batch: it stays open (a sync handle) under a Web Lock of its own, and is
// removed when the batch ends. A store that finds a log whose lock is free knows its writer died:
// every path begun and not ended there is removed (journal.ts has the marks of appends and
// replaces; this is the same for creations).
//
// One write a session: each write is a call to the browser (milliseconds where OPFS is held in
// memory), so records wait to share one. An end record waits for the next write, and at the latest
// for `settle()`, which the holder of the session's write lock calls before letting it go
// (write-locks.ts): a lock let go always has its end record on disk. The begin record of a file
// opened ahead of its turn (a folder import's next sessions) waits for the next write (the end of
// the session before it, usually), for its session to be wanted, or BEGIN_WAIT ms; its file is
// created only once the record is written.
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
/** ms a begin record of a file opened ahead waits for another record to share its write. */
const BEGIN_WAIT = 250;
/** The bytes of one record ("+path\n" or "-path\n"). */
const bytesOf = (path: string) => encoder.encode(path).length + 2;

/** Whether a journal/ name is a creation log. */
export const isCreationLog = (name: string) => name.startsWith(CREATION_PREFIX);

/** One new file being written under the log: end it once it is whole (or gone). */
export interface Creation {
  /** The file is whole and flushed (or was removed after a failure): recovery must leave it. Written with the next record, or by `settle()`. */
  end(): void;
}

/**
 * The creation log of one store over `disk` in `dir` (the journal's directory). `begin` is used only
 * by a caller that holds the session's write lock and has seen that no file is at `path`.
 */
export function createCreationLog(disk: Disk, dir: string, now: () => number) {
  type Open = { name: string; file: LogFile; at: number; size: number; release: () => void };
  type Waiting = { path: string; go: () => void; fail: (e: unknown) => void };
  let current: Promise<Open> | null = null;
  // The log once open (settle() writes synchronously).
  let opened: Open | null = null;
  let users = 0;
  const mine = new Set<string>();
  // Records not written yet: paths ended, and begin records of files opened ahead (with their waiters).
  let ends: string[] = [];
  let begins: Waiting[] = [];
  // Bytes of the room taken for records not written yet (each begin takes its own and its end's).
  let promised = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  // Told at the next write (or settle, or close): the end records waiting are on disk by then.
  let onWritten: Array<() => void> = [];
  const written = () => {
    const told = onWritten;
    onWritten = [];
    for (const tell of told) tell();
  };

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

  // Writes every record waiting (and `record` after them) in one write.
  const write = (log: Open, record?: string) => {
    const lines = ends.map((p) => `-${p}`);
    const waiting = begins;
    for (const b of waiting) lines.push(`+${b.path}`);
    if (record !== undefined) lines.push(record);
    ends = [];
    begins = [];
    if (timer) clearTimeout(timer);
    timer = null;
    if (!lines.length) return written();
    try {
      const n = log.file.write(lines.join('\n'));
      log.at += n;
      promised -= n;
    } catch (e) {
      for (const b of waiting) b.fail(e);
      throw e;
    } finally {
      written();
    }
    for (const b of waiting) b.go();
  };

  /** Writes the records waiting (synchronously); the holder of a session's write lock calls it before letting the lock go. */
  const settle = () => {
    if (opened) write(opened);
    else {
      ends = [];
      written();
    }
  };
  const settleQuietly = () => {
    try {
      settle();
    } catch {
      // The begin records' waiters were told; an end record lost leaves its file to recovery, as a crash would.
    }
  };

  return {
    /** Whether this store can write new files in place (the disk offers it). */
    usable: Boolean(disk.writeInPlace && disk.openLog),

    /**
     * Names `path` in the log before it is written; may throw QuotaExceededError (nothing written
     * yet). `ahead`: the file is opened ahead of its turn; its record may wait (see the top) until
     * `ahead` resolves (its session is wanted, or let go).
     */
    async begin(path: string, ahead?: Promise<unknown>): Promise<Creation> {
      users++;
      try {
        current ??= start().catch((e) => {
          current = null;
          throw e;
        });
        const log = await current;
        opened = log;
        const need = 2 * bytesOf(path);
        // Room for the end record too, taken now: ending never needs room the disk may not have.
        if (log.at + promised + need > log.size) {
          const grown = Math.max(log.size + GROW, log.at + promised + need);
          log.file.reserve(grown);
          log.size = grown;
        }
        promised += need;
        try {
          if (!ahead) write(log, `+${path}`);
          else
            await new Promise<void>((go, fail) => {
              const waiting = { path, go, fail };
              begins.push(waiting);
              timer ??= setTimeout(settleQuietly, BEGIN_WAIT);
              void ahead.then(() => begins.includes(waiting) && settleQuietly());
            });
        } catch (e) {
          promised -= need;
          throw e;
        }
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
          ends.push(path);
        },
      };
    },

    settle,

    /** Whether end records wait for a write. */
    pending: () => ends.length > 0,

    /**
     * Resolves once the end records waiting now are on disk: with the next write (a begin record's,
     * usually), a `settle()`, the log's close, or BEGIN_WAIT ms from now at the latest. A lock held
     * until then is let go with others in one write instead of one write each.
     */
    whenWritten(): Promise<void> {
      timer ??= setTimeout(settleQuietly, BEGIN_WAIT);
      return new Promise<void>((tell) => onWritten.push(tell));
    },

    /** Closes and removes the log when no file is being written under it (at the end of an import batch). */
    async close(): Promise<void> {
      if (!current || users > 0) return;
      const log = await current.catch(() => null);
      if (!log || users > 0) return;
      current = null;
      opened = null;
      // Every file named in it is whole: the log goes, and the end records waiting with it.
      ends = [];
      promised = 0;
      written();
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
