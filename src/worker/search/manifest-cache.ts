// The manifest (manifest.json and its log, manifest-log.ts) as this worker reads and writes it.
// Every keystroke syncs, and a manifest that has not changed since the last sync is followed without
// reading and parsing it again; a log that grew (another tab's import) is read from where the last
// read stopped, not whole. A write appends the entries it changed to the log, and a sync folds log
// and file into a new manifest.json once the log outgrows the file (an import's batch, which reads
// no manifest, only once it is several times the file), so the bytes written stay those of the
// entries written, whatever the library's size.
// A sync ends holding the index's lock, so a later write (another tab's) is stamped later than the
// time the sync ended; the copy is kept only when that time is past the files' own, so any later
// write changes the time (or the size) they show.
import { once } from '../../storage/chunks.ts';
import type { Disk, DiskEntry } from '../../storage/types.ts';
import {
  applyManifestChanges,
  encodeManifestLogAppend,
  encodeManifestLogStart,
  MANIFEST_LOG,
  type ManifestChange,
  readManifestLog,
  readManifestWhole,
  writeManifest,
} from './manifest-log.ts';
import { emptyManifest, MANIFEST, type Manifest, VERSION } from './segments.ts';

// The log is folded into manifest.json once it is larger than the file, and not before this size;
// by an import's batch (which reads no manifest) only once it is this many times that.
const FOLD_BELOW = 64 * 1024;
const ADD_FOLD_TIMES = 4;

// The files as read or written here: manifest.json, its log's name, the log as last seen and how far
// it was read through (`logOk`: the log, if any, continues this manifest.json).
interface Seen {
  file: DiskEntry;
  name: string | null;
  log: DiskEntry | null;
  logAt: number;
  logOk: boolean;
}

// Bytes of manifest.json's head that name its log, and of the log's first line.
const HEAD_BYTES = 256;
const textDecoder = new TextDecoder();

// The name of the log that continues manifest.json, read from the file's head (written first: manifest-log.ts), or null.
async function logNameOf(disk: Disk): Promise<string | null> {
  try {
    const head = /^\{"v":(\d+),"log":"([0-9a-z-]+)",/.exec(textDecoder.decode(await disk.read(MANIFEST, 0, HEAD_BYTES)));
    return head && Number(head[1]) === VERSION ? head[2] : null;
  } catch {
    return null;
  }
}

const sameEntry = (a: DiskEntry | null, b: DiskEntry | null) => (a && b ? a.size === b.size && a.modified === b.modified : a === b);

/** Reads and writes the manifest, following the copy the last sync left while the files are unchanged; `foldAt`: log bytes before a fold (default: the larger of 64 KB and manifest.json's size). */
export function createManifestCache(disk: Disk, foldAt?: number) {
  // The copy the last sync left, and the files it stands for.
  let known: { seen: Seen; manifest: Manifest } | null = null;
  // What the last `read` (or write) found on disk: a write under the same lock goes on from it.
  let base: Seen | null = null;
  const stats = () => Promise.all([disk.stat(MANIFEST), disk.stat(MANIFEST_LOG)]);

  // Appends to the log as `b` found it (just now, under the lock): to a log that continues the file,
  // else as a new log (replacing another file's); folded into a new manifest.json (`whole`: the manifest
  // with these entries) once the log outgrows the file.
  const append = async (b: Seen & { name: string }, changes: ManifestChange[], whole: () => Promise<Manifest | null>, times = 1) => {
    base = b;
    if (!changes.length) return;
    base = null;
    const adding = b.logOk && b.logAt > 0;
    const bytes = adding ? encodeManifestLogAppend(changes) : encodeManifestLogStart(b.name, changes);
    if (adding) await disk.append(MANIFEST_LOG, bytes);
    else await disk.writeNew(MANIFEST_LOG, once(bytes));
    const log = await disk.stat(MANIFEST_LOG);
    if (!log || log.size > times * foldLimit(b)) {
      const m = await whole();
      if (m) return write(m);
    }
    if (log) base = { ...b, log, logAt: log.size, logOk: true };
  };

  // Log bytes past which a write folds the log into manifest.json.
  const foldLimit = (b: Seen) => foldAt ?? Math.max(FOLD_BELOW, b.file.size);

  /** Writes the whole manifest as manifest.json (its log started again). */
  const write = async (m: Manifest): Promise<void> => {
    base = null;
    const name = await writeManifest(disk, m);
    const file = await disk.stat(MANIFEST);
    if (file) base = { file, name, log: null, logAt: 0, logOk: true };
  };

  /** The manifest on disk (the caller holds the index's lock and may change it: the copy is dropped until `settled`). */
  const read = async (): Promise<Manifest | null> => {
    const k = known;
    known = null;
    base = null;
    const [file, log] = await stats();
    if (!file) return null;
    if (k && sameEntry(k.seen.file, file)) {
      if (sameEntry(k.seen.log, log)) {
        base = k.seen;
        return k.manifest;
      }
      // Lines another tab appended: only they are read (a log removed or cut is read whole, below).
      if (k.seen.name && k.seen.logOk && log && log.size > k.seen.logAt && log.size >= (k.seen.log?.size ?? 0)) {
        const read = readManifestLog(await disk.read(MANIFEST_LOG, k.seen.logAt, log.size), k.seen.logAt, k.seen.name);
        applyManifestChanges(k.manifest, read.changes);
        base = { ...k.seen, log, logAt: k.seen.logAt + read.consumed, logOk: read.belongs };
        return k.manifest;
      }
    }
    const whole = await readManifestWhole(disk);
    if (!whole) return null;
    base = { file, name: whole.manifest.log ?? null, log, logAt: whole.logAt, logOk: whole.logOk };
    return whole.manifest;
  };

  /** The copy the last sync left, when the files are still those (else null); the copy stays. */
  const current = async (): Promise<Manifest | null> => {
    const k = known;
    if (!k) return null;
    const [file, log] = await stats();
    return sameEntry(k.seen.file, file) && sameEntry(k.seen.log, log) && known === k ? k.manifest : null;
  };

  /**
   * Writes `m` (read by `read` under the same lock, then changed): the entries of `ids` appended to
   * the log (null for one no longer in `m`), or the whole manifest when `ids` is not given, when there
   * was none, or once the log outgrows the file.
   */
  const save = async (m: Manifest, ids?: Iterable<string>): Promise<void> => {
    const b = base;
    base = null;
    // A log grown past the file (an import's batches add without folding) is folded here: a sync has read the whole manifest.
    if (!b?.name || !ids || !sameEntry(b.file, await disk.stat(MANIFEST)) || (b.log?.size ?? 0) > foldLimit(b)) return write(m);
    const changes = [...new Set(ids)].map((id): ManifestChange => [id, m.sessions[id] ?? null]);
    return append({ ...b, name: b.name }, changes, async () => m);
  };

  /** A sync ended (still under the lock) with `manifest` as what is on disk. */
  const settled = async (manifest: Manifest): Promise<void> => {
    const b = base;
    const [file, log] = await stats();
    const now = Date.now();
    if (b && file && sameEntry(b.file, file) && sameEntry(b.log, log) && now > file.modified && (!log || now > log.modified)) known = { seen: b, manifest };
  };

  /**
   * Adds entries (an import's batch; the caller holds the index's lock) without reading the manifest:
   * manifest.json's head names its log, and the log's first line says whether it continues that file.
   * The whole manifest is read only when there is none yet, when the head does not say, or for a fold.
   */
  const add = async (changes: ManifestChange[]): Promise<void> => {
    const k = known;
    known = null;
    base = null;
    const [file, log] = await stats();
    if (k?.seen.name && sameEntry(k.seen.file, file) && sameEntry(k.seen.log, log)) {
      // The copy the last sync left is the manifest on disk: kept up to date, and kept.
      applyManifestChanges(k.manifest, changes);
      await append({ ...k.seen, name: k.seen.name }, changes, async () => k.manifest, ADD_FOLD_TIMES);
      return settled(k.manifest);
    }
    const name = file ? await logNameOf(disk) : null;
    if (!file || !name) {
      const m = (await read()) ?? emptyManifest();
      applyManifestChanges(m, changes);
      return save(
        m,
        changes.map(([id]) => id),
      );
    }
    const belongs = !!log?.size && readManifestLog(await disk.read(MANIFEST_LOG, 0, HEAD_BYTES), 0, name).belongs;
    const found = { file, name, log, logAt: belongs ? (log?.size ?? 0) : 0, logOk: belongs || !log?.size };
    // Folded here only once the log is several times the file: a sync, which reads the whole manifest anyway, folds it before.
    await append(found, changes, async () => (await readManifestWhole(disk))?.manifest ?? null, ADD_FOLD_TIMES);
    base = null;
  };

  /** Whether the log read last (under the lock) has outgrown manifest.json: the next `save` folds it. */
  const outgrown = () => !!base && (base.log?.size ?? 0) > foldLimit(base);

  return { read, current, save, add, write, settled, outgrown };
}
