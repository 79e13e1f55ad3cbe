// The library index as the store keeps it: the records written since the last flush (pending)
// over index.json and its log (index-disk.ts), the check of the index against the files
// (reconcile), and the flush that appends the pending records to the log under the index's lock.
// A flush, and a check that finds a few new files, cost the records they write, not the library's size.
import { createIndexDisk } from './index-disk.ts';
import { applyChanges } from './index-log.ts';
import type { Journal } from './journal.ts';
import type { createLinks } from './links.ts';
import { withLock } from './locks.ts';
import { idFromFileName, SESSIONS_DIR, TRASH_DIR } from './names.ts';
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
  /** Bytes the log may reach before it is compacted into index.json (default: the larger of 64 KB and index.json's size). */
  compactLog?: number;
  /** Whether this store is writing a new session `id` now (its write lock held here: write-locks.ts). */
  writing?: (id: string) => boolean;
}

/** The store's index: pending records over index.json and its log. */
export function createIndexState(o: IndexStateOptions) {
  const { disk, links, journal, active, now } = o;
  // Index records written by this store but not yet on disk (null: deleted).
  const pending = new Map<string, SessionSummary | null>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  // True while index.json could not be written (quota) and `pending` holds the whole index.
  let memoryIndex = false;

  // index.json and its log as this store reads and writes them (index-disk.ts).
  const files = createIndexDisk(disk, o.compactLog);
  const readIndexFile = files.read;
  const writeIndexFile = files.write;

  // Checks the index against the files. Opening compares names only (opening 2,000 files to read
  // their sizes takes seconds): new files are read, missing ones dropped, and what changed is
  // appended to the log as any flush's records (not a rewrite of the whole index). A file that grew
  // behind the index's back (a crash between a write and the index flush) is healed when it is next
  // read (get). A file this store is writing (its record pending, or its session's lock held here:
  // an import running beside the check) is left to its own record. A rebuild (forceAll) reads
  // every file and writes the whole index.
  const reconcile = async (forceAll: boolean): Promise<string[]> => {
    const old = forceAll ? null : await readIndexFile();
    const changedIds: string[] = [];
    const byPath = new Map([...(old?.values() ?? [])].map((s) => [s.path, s]));
    const next: SessionSummary[] = [];
    const found = new Map<string, SessionSummary | null>();
    const names = await disk.names(SESSIONS_DIR);
    for (const name of names) {
      const id = idFromFileName(name);
      if (id === null) continue;
      const path = `${SESSIONS_DIR}/${name}`;
      const known = byPath.get(path);
      byPath.delete(path);
      if (known && known.id === id) {
        next.push(known);
        continue;
      }
      if (old && (pending.has(id) || o.writing?.(id))) continue;
      const stat = await disk.stat(path);
      if (!stat) continue;
      changedIds.push(id);
      const s = summaryOf(links, id, path, stat.size, await readStored(disk, path, o.reader), stat.modified);
      next.push(s);
      found.set(id, s);
    }
    for (const s of byPath.values()) {
      changedIds.push(s.id);
      found.set(s.id, null);
    }
    if (old === null || found.size) {
      try {
        if (old === null) await writeIndexFile(next);
        else {
          await files.append(found);
          // What this store shows was made without them: made again.
          files.touch();
        }
        memoryIndex = false;
      } catch (e) {
        if ((e as DOMException)?.name !== 'QuotaExceededError') throw e;
        // A full device must still list its sessions: keep the rebuilt index in memory until a write fits.
        memoryIndex = true;
        for (const s of next) pending.set(s.id, s);
        for (const s of byPath.values()) pending.set(s.id, null);
        files.touch();
      }
    }
    for (const t of await disk.list(TRASH_DIR)) if (now() - t.modified > o.trashTtl) await disk.remove(`${TRASH_DIR}/${t.name}`);
    // Scratch files: imports release theirs; an export's stays readable for a day.
    for (const t of await disk.list(SPOOL_DIR)) if (now() - t.modified > SPOOL_TTL) await disk.remove(`${SPOOL_DIR}/${t.name}`);
    return changedIds;
  };

  // The index as this store sees it (what is on disk with the pending records over it), kept up to
  // date as records are made: reused while what was read from disk is unchanged.
  // `heads`: the variants recorded under each header id, made when first asked for and kept with the view.
  let view: { base: Map<string, SessionSummary> | null; changes: number; map: Map<string, SessionSummary>; heads: Map<string, Set<string>> | null } | null =
    null;

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
    if (view && view.base === base && view.changes === files.changes()) return view.map;
    const out = new Map(base ?? []);
    applyChanges(out, pending);
    view = { base, changes: files.changes(), map: out, heads: null };
    return out;
  };

  const addHead = (heads: Map<string, Set<string>>, s: SessionSummary) => {
    if (!s.variantOf) return;
    const ids = heads.get(s.variantOf) ?? new Set<string>();
    ids.add(s.id);
    heads.set(s.variantOf, ids);
  };

  /**
   * The ids `map` (what `map()` returned) records as variants of `headerId`: a lookup while it is the
   * view this store keeps (one walk of the index when the view is made, not one per call).
   */
  const variantsOf = (records: Map<string, SessionSummary>, headerId: string): string[] => {
    const v = view;
    if (!v || v.map !== records) return [...records.values()].filter((s) => s.variantOf === headerId).map((s) => s.id);
    if (!v.heads) {
      v.heads = new Map();
      for (const s of v.map.values()) addHead(v.heads, s);
    }
    return [...(v.heads.get(headerId) ?? [])];
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
    if (kept.size < records.size) files.touch();
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
        if (kept.size) await files.append(kept);
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
    if (view) {
      const was = view.map.get(id);
      applyChanges(view.map, [[id, s]]);
      if (view.heads && was?.variantOf) view.heads.get(was.variantOf)?.delete(id);
      if (view.heads && s) addHead(view.heads, s);
    }
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
    variantsOf,
    flush,
    record,
    rescan,
    /** The record this store wrote for `id` and has not flushed yet (null: deleted; undefined: none). */
    pendingOf: (id: string) => pending.get(id),
  };
}

/** A store's index state. */
export type IndexState = ReturnType<typeof createIndexState>;
