// index.json and its log (index-log.ts) as one store reads and writes them: read once and then
// followed as the log grows (another tab's records are read, not the whole file again), records
// appended to the log, and log and file compacted into a new index.json once the log outgrows the
// file, so the bytes written stay proportional to the records written. Every writer holds the
// index's lock (store-index.ts INDEX_LOCK).
import { once } from './chunks.ts';
import { isNotFound } from './errors.ts';
import { decodeIndexFile, encodeIndex } from './index-file.ts';
import { applyChanges, encodeLogAppend, encodeLogStart, newLogName, readLog } from './index-log.ts';
import { INDEX_LOG_PATH, INDEX_PATH } from './names.ts';
import type { Disk, DiskEntry, SessionSummary } from './types.ts';

// The log is compacted into index.json once it is larger than the file, and not before this size.
const COMPACT_BELOW = 64 * 1024;

/** The library index on disk: `compactLog` bytes of log at most before a compaction (default: the larger of 64 KB and index.json's size). */
export function createIndexDisk(disk: Disk, compactLog?: number) {
  // index.json and its log as last read or written here, reused while index.json is the same file
  // (size and write time) and the log has not grown; a log that grew is read from where the last
  // read stopped. `changes` counts what changed the records read (others' writes, a new file).
  let disked: { index: DiskEntry; name: string | null; map: Map<string, SessionSummary>; logSeen: number; logAt: number; logOk: boolean } | null = null;
  let changes = 0;
  const sameFile = (a: DiskEntry, b: DiskEntry) => a.size === b.size && a.modified === b.modified;

  /** The records on disk (index.json with its log), or null when there is no usable index. */
  const read = async (): Promise<Map<string, SessionSummary> | null> => {
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
  /** Writes these records as the whole index.json (a new log name: the old log is ignored, and removed). */
  const write = async (list: Iterable<SessionSummary>, same = false) => {
    disked = null;
    const records = new Map([...list].map((s) => [s.id, s]));
    const name = newLogName();
    await disk.writeNew(INDEX_PATH, once(encodeIndex(records.values(), name)));
    await disk.remove(INDEX_LOG_PATH).catch(() => undefined);
    const index = await disk.stat(INDEX_PATH);
    disked = index ? { index, name, map: records, logSeen: 0, logAt: 0, logOk: false } : null;
    if (!same) changes++;
  };

  /**
   * Adds records to the log (the caller holds INDEX_LOCK and has just read the index: what `read`
   * returned is what is on disk); once the log outgrows index.json, both are written again as one index.json.
   */
  const append = async (records: Map<string, SessionSummary | null>) => {
    const d = disked;
    if (!d?.name) {
      const map = new Map(d?.map ?? []);
      applyChanges(map, records);
      return write(map.values(), true);
    }
    disked = null;
    const bytes = d.logOk ? encodeLogAppend(records) : encodeLogStart(d.name, records);
    if (d.logOk) await disk.append(INDEX_LOG_PATH, bytes);
    else await disk.writeNew(INDEX_LOG_PATH, once(bytes));
    applyChanges(d.map, records);
    const log = await disk.stat(INDEX_LOG_PATH);
    if (log && log.size > (compactLog ?? Math.max(COMPACT_BELOW, d.index.size))) return write(d.map.values(), true);
    // Read through to the end when the log is just what was read and written here (else the next read reads it).
    if (log && log.size === (d.logOk ? d.logSeen : 0) + bytes.length) disked = { ...d, logSeen: log.size, logAt: log.size, logOk: true };
  };

  return {
    read,
    write,
    append,
    /** How many times the records read changed (a listing made of them is made again when this moves). */
    changes: () => changes,
    /** Says the records read must be looked at again (what this store shows changed otherwise). */
    touch: () => void changes++,
  };
}
