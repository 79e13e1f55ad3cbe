// The library index as the store keeps it: the records written since the last flush (pending),
// index.json and the log of records after it (index-log.ts), read once and then followed as the
// log grows, the check of the index against the files (reconcile), and the flush that appends the
// pending records to the log under the index's lock (compacting log and file into a new index.json
// once the log outgrows the file). A flush costs the records it writes, not the library's size.
import { once } from './chunks.ts';
import { isNotFound } from './errors.ts';
import { decodeIndexFile, encodeIndex } from './index-file.ts';
import { applyChanges, encodeLogAppend, encodeLogStart, newLogName, readLog } from './index-log.ts';
import type { Journal } from './journal.ts';
import type { createLinks } from './links.ts';
import { withLock } from './locks.ts';
import { idFromFileName, INDEX_LOG_PATH, INDEX_PATH, SESSIONS_DIR, TRASH_DIR } from './names.ts';
import { readStored, summaryOf } from './summary.ts';
import type { ChangeListener, Disk, DiskEntry, SessionReader, SessionSummary } from './types.ts';

/** The Web Lock every index.json write holds (across tabs). */
export const INDEX_LOCK = 'rho-sessions:index';
/** Scratch files (import spools, exports). */
export const SPOOL_DIR = 'spool';
const SPOOL_TTL = 24 * 3600 * 1000;
// The log is compacted into index.json once it is larger than the file, and not before this size.
const COMPACT_BELOW = 64 * 1024;

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
  /** Bytes the log may reach before it is compacted into index.json (default: the larger of 64 KB and index.json's size). */
  compactLog?: number;
}

/** The store's index: pending records over index.json and its log. */
export function createIndexState(o: IndexStateOptions) {
  const { disk, links, journal, active, now } = o;
  // Index records written by this store but not yet on disk (null: deleted).
  const pending = new Map<string, SessionSummary | null>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  // True while index.json could not be written (quota) and `pending` holds the whole index.
  let memoryIndex = false;

  // index.json and its log as last read or written here (index-log.ts), reused while index.json is
  // the same file (size and write time) and the log has not grown; a log that grew is read from
  // where the last read stopped. `changes` counts what others' writes changed in `map`.
  let disked: { index: DiskEntry; name: string | null; map: Map<string, SessionSummary>; logSeen: number; logAt: number; logOk: boolean } | null = null;
  let changes = 0;
  const sameFile = (a: DiskEntry, b: DiskEntry) => a.size === b.size && a.modified === b.modified;

  const readIndexFile = async (): Promise<Map<string, SessionSummary> | null> => {
    // A compaction may swap index.json in between the reads of the two files: read again then.
    for (let tries = 0; ; tries++) {
      const index = await disk.stat(INDEX_PATH);
      if (!index) return (disked = null);
      const logSize = (await disk.stat(INDEX_LOG_PATH))?.size ?? 0;
      const d = disked;
      try {
        if (d && sameFile(d.index, index) && (!d.name || logSize === d.logSeen)) return d.map;
        if (d?.name && sameFile(d.index, index) && d.logOk && logSize > d.logSeen) {
          // Records another tab appended: only they are read.
          const read = readLog(await disk.read(INDEX_LOG_PATH, d.logAt, logSize), d.logAt, d.name);
          const again = await disk.stat(INDEX_PATH);
          if (again && sameFile(again, index)) {
            applyChanges(d.map, read.changes);
            d.logAt += read.consumed;
            d.logSeen = logSize;
            if (read.changes.length) changes++;
            return d.map;
          }
          continue;
        }
        const file = decodeIndexFile(await disk.read(INDEX_PATH));
        if (!file) return (disked = null);
        const map = new Map(file.sessions.map((s) => [s.id, s]));
        let logAt = 0;
        let logOk = false;
        if (file.log && logSize > 0) {
          const read = readLog(await disk.read(INDEX_LOG_PATH, 0, logSize), 0, file.log);
          applyChanges(map, read.changes);
          logAt = read.consumed;
          logOk = read.belongs;
        }
        const again = await disk.stat(INDEX_PATH);
        if (!again || !sameFile(again, index)) {
          if (tries < 3) continue;
          return map;
        }
        disked = { index, name: file.log, map, logSeen: logSize, logAt, logOk };
        changes++;
        return map;
      } catch (e) {
        if (!isNotFound(e)) throw e;
        // Removed between the look and the read (a swap, a compaction): look again.
        if (tries < 3) continue;
        return (disked = null);
      }
    }
  };

  // Callers hold INDEX_LOCK (every writer of index.json and its log does, across tabs), so the file
  // just written is still this one when stat'ed: the next read reuses the records instead of
  // decoding 1.4 MB again for 2,000 sessions. `same`: the records are what this store saw already.
  const writeIndexFile = async (list: Iterable<SessionSummary>, same = false) => {
    disked = null;
    const records = new Map([...list].map((s) => [s.id, s]));
    const name = newLogName();
    await disk.writeNew(INDEX_PATH, once(encodeIndex(records.values(), name)));
    // The old log names the file just replaced: ignored from now on, and removed.
    await disk.remove(INDEX_LOG_PATH).catch(() => undefined);
    const index = await disk.stat(INDEX_PATH);
    disked = index ? { index, name, map: records, logSeen: 0, logAt: 0, logOk: false } : null;
    if (!same) changes++;
  };

  // Adds records to the log (the caller holds INDEX_LOCK and has just read the index: `disked` is
  // what is on disk); once the log outgrows index.json, both are written again as one index.json,
  // so the bytes written stay proportional to the records written.
  const appendRecords = async (records: Map<string, SessionSummary | null>) => {
    const d = disked;
    if (!d?.name) {
      const map = new Map(d?.map ?? []);
      applyChanges(map, records);
      return writeIndexFile(map.values(), true);
    }
    disked = null;
    const bytes = d.logOk ? encodeLogAppend(records) : encodeLogStart(d.name, records);
    if (d.logOk) await disk.append(INDEX_LOG_PATH, bytes);
    else await disk.writeNew(INDEX_LOG_PATH, once(bytes));
    applyChanges(d.map, records);
    const log = await disk.stat(INDEX_LOG_PATH);
    if (log && log.size > (o.compactLog ?? Math.max(COMPACT_BELOW, d.index.size))) return writeIndexFile(d.map.values(), true);
    // Read through to the end when the log is just what was read and written here (else the next read reads it).
    if (log && log.size === (d.logOk ? d.logSeen : 0) + bytes.length) disked = { ...d, logSeen: log.size, logAt: log.size, logOk: true };
  };

  // Checks the index against the files. Opening compares names only (opening 2,000 files to read
  // their sizes takes seconds): new files are read, missing ones dropped. A file that grew behind the
  // index's back (a crash between a write and the index flush) is healed when it is next read (get).
  // A rebuild (forceAll) reads every file.
  const reconcile = async (forceAll: boolean): Promise<string[]> => {
    const old = forceAll ? null : await readIndexFile();
    const changedIds: string[] = [];
    const byPath = new Map([...(old?.values() ?? [])].map((s) => [s.path, s]));
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
        changes++;
      }
    }
    for (const t of await disk.list(TRASH_DIR)) if (now() - t.modified > o.trashTtl) await disk.remove(`${TRASH_DIR}/${t.name}`);
    // Scratch files: imports release theirs; an export's stays readable for a day.
    for (const t of await disk.list(SPOOL_DIR)) if (now() - t.modified > SPOOL_TTL) await disk.remove(`${SPOOL_DIR}/${t.name}`);
    return changedIds;
  };

  // The index as this store sees it (what is on disk with the pending records over it), kept up to
  // date as records are made: reused while what was read from disk is unchanged.
  let view: { base: Map<string, SessionSummary> | null; changes: number; map: Map<string, SessionSummary> } | null = null;

  /** The index as this store sees it: index.json and its log (rebuilt when lost) with the pending records over it. */
  const map = async (): Promise<Map<string, SessionSummary>> => {
    let base = await readIndexFile();
    if (base === null && !memoryIndex) {
      // Not there, or not readable: a compaction may be swapping a new index.json in (OPFS shows no
      // file for a moment), so look again holding the lock every writer holds. Still missing or
      // corrupted then (another tab, a crash): rebuild it from the files. (Without the second look,
      // a listing during a flush read every file again: a drop of 20 files into 2,000 took a minute.)
      base = await withLock(INDEX_LOCK, async () => {
        const again = await readIndexFile();
        if (again !== null || memoryIndex) return again;
        await reconcile(true);
        return readIndexFile();
      });
    }
    if (view && view.base === base && view.changes === changes) return view.map;
    const out = new Map(base ?? []);
    applyChanges(out, pending);
    view = { base, changes, map: out };
    return out;
  };

  // Another tab may append to a session after this store made its record, and flush first: written
  // now, this older record would hide the newer one. So a record whose size differs from the one on
  // disk is written only while it still describes the file; else the file's last writer's record
  // is (or will be) the one that says so. A session new to the index has no record to hide.
  const dropOutdated = async (current: Map<string, SessionSummary>, records: Map<string, SessionSummary | null>) => {
    const kept = new Map(records);
    for (const [id, s] of records) {
      const known = current.get(id);
      if (!s || !known || known.size === s.size) continue;
      const size = await disk.size(s.path);
      if (size !== null && size !== s.size) kept.delete(id);
    }
    // What this store shows is read from disk again, without the records left out.
    if (kept.size < records.size) changes++;
    return kept;
  };

  const flush = async () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (pending.size === 0) return;
    const applied = new Map(pending);
    await withLock(INDEX_LOCK, async () => {
      let current = await readIndexFile();
      if (current === null && !memoryIndex) {
        await reconcile(true);
        current = await readIndexFile();
      }
      if (current === null) {
        // A full device's index, held in memory: written whole once it fits.
        const whole = new Map<string, SessionSummary>();
        applyChanges(whole, applied);
        await writeIndexFile(whole.values());
      } else {
        const kept = await dropOutdated(current, applied);
        if (kept.size) await appendRecords(kept);
      }
      memoryIndex = false;
    });
    for (const [id, s] of applied) if (pending.get(id) === s) pending.delete(id);
    // The index now holds these sessions as they are on disk: their "done" marks can go (one look
    // at the journal's folder, not one per session: a drop of 2,000 new ones has none).
    const marked = await journal.markedIds();
    for (const id of marked) {
      if (!applied.has(id) || active.has(id)) continue;
      if ((await journal.readMark(id))?.done) await journal.drop(id);
    }
    o.onChange?.([...applied.keys()]);
  };

  /**
   * Sets one session's index record (null: it is gone), as seen by this store at once and written
   * with the next flush as one line of the index's log (`flushDelay` gathers many). The one way a
   * record changes: an append, a rename or a new session each cost their own record, whatever the
   * library's size.
   */
  const record = (s: SessionSummary | null, id: string) => {
    pending.set(id, s);
    if (view) applyChanges(view.map, [[id, s]]);
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
