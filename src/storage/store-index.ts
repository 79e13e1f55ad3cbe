// index.json as the store keeps it: the records written since the last flush (pending), the parsed
// file (reused while it is unchanged), the check of the index against the files (reconcile), and
// the flush that writes pending records under the index's lock.
import { once } from './chunks.ts';
import { isNotFound } from './errors.ts';
import { decodeIndex, encodeIndex } from './index-file.ts';
import type { Journal } from './journal.ts';
import type { createLinks } from './links.ts';
import { withLock } from './locks.ts';
import { idFromFileName, INDEX_PATH, SESSIONS_DIR, TRASH_DIR } from './names.ts';
import { readStored, summaryOf } from './summary.ts';
import type { ChangeListener, Disk, SessionReader, SessionSummary } from './types.ts';

/** The Web Lock every index.json write holds (across tabs). */
export const INDEX_LOCK = 'rho-sessions:index';
/** Scratch files (import spools, exports). */
export const SPOOL_DIR = 'spool';
const SPOOL_TTL = 24 * 3600 * 1000;

/** What the index state is built from. */
export interface IndexStateOptions {
  disk: Disk;
  /** How a stored file is read for its record. */
  reader: SessionReader;
  links: ReturnType<typeof createLinks>;
  journal: Journal;
  /** Writes in progress per session id in this store. */
  active: Map<string, number>;
  now: () => number;
  flushDelay: number;
  trashTtl: number;
  onChange?: ChangeListener;
}

/** The store's index: pending records over index.json. */
export function createIndexState(o: IndexStateOptions) {
  const { disk, links, journal, active, now } = o;
  // Index records written by this store but not yet in index.json (null: deleted).
  const pending = new Map<string, SessionSummary | null>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let pendingVersion = 0;
  let merged: { list: SessionSummary[] | null; version: number; map: Map<string, SessionSummary> } | null = null;
  // True while index.json could not be written (quota) and `pending` holds the whole index.
  let memoryIndex = false;

  // The parsed index, reused while index.json is the same file (same size and write time).
  let cache: { size: number; modified: number; list: SessionSummary[] | null } | null = null;
  const readIndexFile = async (): Promise<SessionSummary[] | null> => {
    const stat = await disk.stat(INDEX_PATH);
    if (!stat) return (cache = null);
    if (cache && cache.size === stat.size && cache.modified === stat.modified) return cache.list;
    let list: SessionSummary[] | null;
    try {
      list = decodeIndex(await disk.read(INDEX_PATH));
    } catch (e) {
      if (isNotFound(e)) return (cache = null);
      throw e;
    }
    cache = { size: stat.size, modified: stat.modified, list };
    return list;
  };

  // Callers hold INDEX_LOCK (every writer of index.json does, across tabs), so the file just written
  // is still this one when stat'ed: the next read (the next flush's, a listing's) reuses the records
  // instead of decoding 1.4 MB again for 2,000 sessions.
  const writeIndexFile = async (list: Iterable<SessionSummary>) => {
    cache = null;
    const records = [...list];
    await disk.writeNew(INDEX_PATH, once(encodeIndex(records)));
    const stat = await disk.stat(INDEX_PATH);
    cache = stat ? { size: stat.size, modified: stat.modified, list: records } : null;
  };

  // Checks the index against the files. Opening compares names only (opening 2,000 files to read
  // their sizes takes seconds): new files are read, missing ones dropped. A file that grew behind the
  // index's back (a crash between a write and the index flush) is healed when it is next read (get).
  // A rebuild (forceAll) reads every file.
  const reconcile = async (forceAll: boolean): Promise<string[]> => {
    const old = forceAll ? null : await readIndexFile();
    const changedIds: string[] = [];
    const byPath = new Map((old ?? []).map((s) => [s.path, s]));
    const next: SessionSummary[] = [];
    let changed = old === null;
    for (const name of await disk.names(SESSIONS_DIR)) {
      const id = idFromFileName(name);
      if (id === null) continue;
      const path = `${SESSIONS_DIR}/${name}`;
      const known = byPath.get(path);
      byPath.delete(path);
      if (known && known.id === id) {
        next.push(known);
        continue;
      }
      const stat = await disk.stat(path);
      if (!stat) continue;
      changed = true;
      changedIds.push(id);
      next.push(summaryOf(links, id, path, stat.size, await readStored(disk, path, o.reader), stat.modified));
    }
    if (byPath.size) changed = true;
    for (const s of byPath.values()) changedIds.push(s.id);
    if (changed) {
      try {
        await writeIndexFile(next);
        memoryIndex = false;
      } catch (e) {
        if ((e as DOMException)?.name !== 'QuotaExceededError') throw e;
        // A full device must still list its sessions: keep the rebuilt index in memory until a write fits.
        memoryIndex = true;
        for (const s of next) pending.set(s.id, s);
        for (const s of byPath.values()) pending.set(s.id, null);
        pendingVersion++;
      }
    }
    for (const t of await disk.list(TRASH_DIR)) if (now() - t.modified > o.trashTtl) await disk.remove(`${TRASH_DIR}/${t.name}`);
    // Scratch files: imports release theirs; an export's stays readable for a day.
    for (const t of await disk.list(SPOOL_DIR)) if (now() - t.modified > SPOOL_TTL) await disk.remove(`${SPOOL_DIR}/${t.name}`);
    return changedIds;
  };

  /** The index as this store sees it: index.json (rebuilt when lost) with the pending records over it. */
  const map = async (): Promise<Map<string, SessionSummary>> => {
    let list = await readIndexFile();
    if (list === null && !memoryIndex) {
      // Not there, or not readable: a flush may be swapping a new index.json in (OPFS shows no file
      // for a moment), so look again holding the lock every writer holds. Still missing or
      // corrupted then (another tab, a crash): rebuild it from the files. (Without the second look,
      // a listing during a flush read every file again: a drop of 20 files into 2,000 took a minute.)
      list =
        (await withLock(INDEX_LOCK, async () => {
          const again = await readIndexFile();
          if (again !== null || memoryIndex) return again;
          await reconcile(true);
          return readIndexFile();
        })) ?? [];
    }
    // Reused while neither index.json (same parsed list) nor the pending records changed.
    if (merged && merged.list === list && merged.version === pendingVersion) return merged.map;
    const out = new Map((list ?? []).map((s) => [s.id, s]));
    for (const [id, s] of pending) {
      if (s) out.set(id, s);
      else out.delete(id);
    }
    merged = { list, version: pendingVersion, map: out };
    return out;
  };

  const flush = async () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (pending.size === 0) return;
    const applied = new Map(pending);
    await withLock(INDEX_LOCK, async () => {
      const current = (await readIndexFile()) ?? null;
      if (current === null && !memoryIndex) await reconcile(true);
      const next = new Map(((await readIndexFile()) ?? []).map((s) => [s.id, s]));
      for (const [id, s] of applied) {
        if (s) next.set(id, s);
        else next.delete(id);
      }
      await writeIndexFile(next.values());
      memoryIndex = false;
    });
    for (const [id, s] of applied) if (pending.get(id) === s) pending.delete(id);
    pendingVersion++;
    // The index now holds these sessions as they are on disk: their "done" marks can go.
    for (const id of applied.keys()) {
      if (active.has(id)) continue;
      if ((await journal.readMark(id))?.done) await journal.drop(id);
    }
    o.onChange?.([...applied.keys()]);
  };

  const record = (s: SessionSummary | null, id: string) => {
    pending.set(id, s);
    pendingVersion++;
    if (timer) clearTimeout(timer);
    // A failed background flush keeps its records pending (listing still shows them) for the next one.
    timer = setTimeout(() => void flush().catch(() => undefined), o.flushDelay);
  };

  /** Re-reads a file into the index. */
  const rescan = async (id: string, path: string, variantOf?: string): Promise<SessionSummary> => {
    const size = (await disk.size(path)) ?? 0;
    const s = summaryOf(links, id, path, size, await readStored(disk, path, o.reader), now(), variantOf);
    record(s, id);
    return s;
  };

  return {
    readIndexFile,
    reconcile,
    map,
    flush,
    record,
    rescan,
    /** The record this store wrote for `id` and has not flushed yet (null: deleted; undefined: none). */
    pendingOf: (id: string) => pending.get(id),
  };
}

/** A store's index state. */
export type IndexState = ReturnType<typeof createIndexState>;
