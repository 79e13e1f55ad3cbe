// The session store over a Disk: original bytes in sessions/, omp image blobs in blobs/, deleted
// sessions in trash/ (for undo), and index.json, a cache of one summary per session that is
// checked against the files when the store opens and rebuilt whenever it is missing or unreadable.
import { createDigester } from '../core/index.ts';
import { blobFiles } from './blob-files.ts';
import { tap } from './chunks.ts';
import { appendEnvelopeFile, envelopePath, readEnvelopeFile, readEnvelopeState, writeEnvelopeFile } from './envelope-index.ts';
import { StoreError } from './errors.ts';
import { dropDerived, freshDerived } from './derived.ts';
import { sortSummaries } from './index-file.ts';
import { createRecovery } from './store-recovery.ts';
import { createCreationLog } from './creations.ts';
import { createJournal, JOURNAL_DIR } from './journal.ts';
import { createLinks } from './links.ts';
import { withLock } from './locks.ts';
import { idFromFileName, SESSIONS_DIR, sessionPath, TRASH_DIR } from './names.ts';
import { createIndexState, INDEX_LOCK, SPOOL_DIR } from './store-index.ts';
import { keptRead, readStored, summaryOf } from './summary.ts';
import type { ChangeListener, Disk, ParentLink, SessionReader, SessionStore, SessionSummary } from './types.ts';
import { familyOf } from './variants.ts';
import { createWriteLocks } from './write-locks.ts';

/** How the store is built: its clock, who hears about changes, how long index writes are batched. */
export interface StoreOptions {
  now?: () => number;
  /** Called with the ids whose index records were just written (the worker tells other tabs). */
  onChange?: ChangeListener;
  /** ms to gather index updates before writing index.json (0: write at once). */
  flushDelay?: number;
  /** Deleted sessions older than this (ms) are purged when the store opens. */
  trashTtl?: number;
  /** How a stored file is read for its index record (default: as a pi file, by the core's digest). */
  reader?: SessionReader;
  /** Bytes the index's log may reach before it is compacted into index.json (store-index.ts; default: as large as index.json, at least 64 KB). */
  compactLog?: number;
}

/** The store (the SessionStore interface, built over a Disk). */
export type Store = SessionStore;

/** Builds the store over a disk. Nothing is read until the first call. */
export function createStore(disk: Disk, options: StoreOptions = {}): Store {
  const now = options.now ?? (() => Date.now());
  const reader: SessionReader = options.reader ?? (() => createDigester());
  let ready: Promise<void> | null = null;
  let checking: Promise<unknown> = Promise.resolve();
  let spools = 0;
  // Writes in progress per session id in this store (their journal marks are not ours to remove).
  const active = new Map<string, number>();
  // Subagent transcripts' parents (links/), put on every summary made of a child.
  const links = createLinks(disk);
  const journal = createJournal(disk, active);
  // New sessions are written in place, named in this log first (creations.ts), when the disk can.
  const creations = createCreationLog(disk, JOURNAL_DIR, now);
  const index = createIndexState({
    disk,
    reader,
    links,
    journal,
    active,
    now,
    flushDelay: options.flushDelay ?? 1000,
    trashTtl: options.trashTtl ?? 7 * 24 * 3600 * 1000,
    onChange: options.onChange,
    compactLog: options.compactLog,
    writing: (id) => locks.writing(id),
  });
  const { flush, record, rescan } = index;

  // Another agent's file must never get pi's lines: appends of pi entries and rewrites are refused.
  const refuseForeign = async (id: string) => {
    const s = (await indexed()).get(id);
    if (s?.piSize !== undefined) {
      const who = s.agent === 'codex' ? 'Codex' : 'Claude Code';
      throw new StoreError('unsupported', `Written by ${who}: read-only here. Export it as a pi session to continue it in pi.`, s.path);
    }
  };

  const { settle, dropUnfinished, recover } = createRecovery({ disk, journal, creations, index, active });
  const locks = createWriteLocks({ disk, journal, creations, active, ready: () => open(), dropUnfinished, settle });
  const { absentUnderLock } = locks;

  // Opening is cheap: the index is used as it is, and checked against the file names in the
  // background (a 2,000-name directory walk takes a second on a busy phone). What the check finds
  // is written to the index and announced like any other change, so lists refresh. Journal marks a
  // dead writer left are few (usually none, one directory read) and are dealt with before the first answer.
  const open = () => {
    if (!ready) {
      ready = links
        .load()
        .then(recover)
        .catch((e) => {
          ready = null;
          throw e;
        });
      checking = ready
        .then(() => withLock(INDEX_LOCK, () => index.reconcile(false)))
        .then((ids) => ids.length && options.onChange?.(ids))
        .catch(() => undefined);
    }
    return ready;
  };

  const indexed = async (): Promise<Map<string, SessionSummary>> => {
    await open();
    return index.map();
  };

  const existing = async (id: string): Promise<string> => {
    await open();
    const path = sessionPath(id);
    if ((await disk.size(path)) === null) throw new StoreError('not-found', `No session ${id} is stored.`);
    return path;
  };

  const store: Store = {
    persistent: disk.persistent,
    dir: () => SESSIONS_DIR,

    async readBytes(id) {
      const path = await existing(id);
      return disk.read(path);
    },
    async readRange(id, start, end) {
      return disk.read(await existing(id), start, end);
    },
    async readFile(id) {
      return disk.blob(await existing(id));
    },
    async readConversion(id) {
      // One look at the index (and the file's size): a pi session has no conversion.
      const s = await store.get(id);
      if (!s) throw new StoreError('not-found', `No session ${id} is stored.`);
      return s.piSize === undefined ? null : freshDerived(disk, id, s.path, reader);
    },
    readEnvelopes: (id) => readEnvelopeFile(disk, id),
    writeEnvelopes: (id, bytes) => writeEnvelopeFile(disk, id, bytes),
    readEnvelopeState: (id) => readEnvelopeState(disk, id),
    appendEnvelopes: (id, block) => appendEnvelopeFile(disk, id, block),
    ...blobFiles(disk),

    async get(id) {
      const s = (await indexed()).get(id) ?? null;
      if (!s) return null;
      const stat = await disk.stat(s.path);
      if (!stat) return null;
      // Heal a record the index missed (see reconcile): the file is the truth.
      return stat.size === s.size ? s : rescan(id, s.path, s.variantOf);
    },
    async list() {
      return sortSummaries([...(await indexed()).values()]);
    },
    family: (headerId) => (absentUnderLock.has(headerId) ? Promise.resolve([]) : familyOf(disk, index, indexed, headerId)),
    async latest() {
      return (await store.list())[0]?.path ?? null;
    },

    async scan(id) {
      return readStored(disk, await existing(id), reader);
    },
    async create(id, chunks, opts = {}) {
      await open();
      absentUnderLock.delete(id);
      const path = sessionPath(id);
      // Never replace a session by creating one: that is replace()'s job, under the write lock.
      if (!opts.checked && (await disk.size(path)) !== null) throw new StoreError('conflict', `A session ${id} is already stored.`);
      const reading = opts.reading ?? reader(path.slice(SESSIONS_DIR.length + 1));
      const scanned = tap(chunks, (c) => reading.push(c));
      let size: number;
      const ahead = opts.checked ? locks.takeOpened(id) : null;
      if (ahead) {
        // Opened under this lock, named in the creation log first (write-locks.ts).
        try {
          size = await ahead.file.write(scanned, { signal: opts.signal, fresh: true });
        } finally {
          ahead.creation.end();
        }
      } else if (opts.checked && creations.usable && disk.writeInPlace) {
        // Under the session's lock with no file at `path`: written in place, named in the creation
        // log first (a crash leaves nothing half written that recovery does not remove).
        const creation = await creations.begin(path);
        try {
          size = await disk.writeInPlace(path, scanned, { signal: opts.signal, fresh: true });
        } finally {
          // Whole, or removed by writeInPlace: either way nothing for recovery to do.
          creation.end();
        }
      } else size = await disk.writeNew(path, scanned, opts.signal);
      const scan = await keptRead(disk, path, reading.finish());
      const s = summaryOf(links, id, path, size, scan, now(), opts.variantOf);
      record(s, id);
      return s;
    },
    async appendRaw(id, bytes, signal) {
      const path = await existing(id);
      const before = await store.get(id);
      return journal.journaled(id, path, 'append', async () => {
        await disk.append(path, bytes, signal);
        return rescan(id, path, before?.variantOf);
      });
    },
    async appendLines(id, bytes, known) {
      const path = await existing(id);
      await refuseForeign(id);
      const before = await store.get(id);
      return journal.journaled(id, path, 'append', async () => {
        const size = (await disk.size(path)) ?? 0;
        // pi loses the next entry after a torn last line (§6): end the file with "\n" first, in the same write.
        const torn = size > 0 && (await disk.read(path, size - 1, size))[0] !== 10;
        const out = torn ? new Uint8Array(bytes.length + 1) : bytes;
        if (torn) {
          out[0] = 10;
          out.set(bytes, 1);
        }
        await disk.append(path, out);
        // The writer's digest describes exactly these bytes: the record comes from it, not from a new read.
        if (!known || torn || known.size !== size || !before) return rescan(id, path, before?.variantOf);
        const s = summaryOf(links, id, path, size + out.length, { digest: known.digest }, now(), before.variantOf);
        record(s, id);
        return s;
      });
    },
    async replace(id, chunks) {
      const path = await existing(id);
      await refuseForeign(id);
      const before = await store.get(id);
      // writeNew swaps in a whole file: nothing to roll back, only the index to re-read after a crash.
      return journal.journaled(id, path, 'replace', async () => {
        await disk.writeNew(path, chunks);
        // Other bytes: their stored envelope index would be refused by its fingerprint anyway; gone is plainer.
        await disk.remove(envelopePath(id));
        return rescan(id, path, before?.variantOf);
      });
    },
    async trash(id) {
      const path = await existing(id);
      const token = `${now()}~${path.slice(SESSIONS_DIR.length + 1)}`;
      await disk.move(path, `${TRASH_DIR}/${token}`);
      await disk.remove(envelopePath(id));
      await dropDerived(disk, id);
      record(null, id);
      return token;
    },
    async restore(token) {
      await open();
      const m = /^\d+~([^/\\]+)$/.exec(token);
      const id = m ? idFromFileName(m[1]) : null;
      if (!m || id === null) throw new StoreError('invalid-input', 'Not an undo token.');
      const from = `${TRASH_DIR}/${token}`;
      if ((await disk.size(from)) === null) throw new StoreError('not-found', 'That deletion can no longer be undone.');
      const path = sessionPath(id);
      if ((await disk.size(path)) !== null) throw new StoreError('conflict', `A session ${id} is stored again; not replaced.`);
      await disk.move(from, path);
      return rescan(id, path);
    },
    withWriteLock: locks.withWriteLock,
    reserve: locks.reserve,
    releaseReserved: locks.releaseAll,
    async flush() {
      // The end of an import batch: its creation log goes once nothing is written under it.
      await creations.close();
      await flush();
    },
    async settled() {
      await open();
      await checking;
    },
    async setParent(id, link: ParentLink) {
      const s = await store.get(id);
      if (!s) throw new StoreError('not-found', `No session ${id} is stored.`);
      await links.set(id, link);
      const next = { ...s, parentOf: link.parentOf, subagent: link.subagent };
      record(next, id);
      return next;
    },
    async rebuild() {
      await open();
      await checking;
      links.reset();
      await links.load();
      await withLock(INDEX_LOCK, () => index.reconcile(true));
    },
    estimate: () => disk.estimate(),
    async spool(chunks, signal) {
      const path = `${SPOOL_DIR}/${now()}-${++spools}-${Math.random().toString(16).slice(2, 10)}`;
      await disk.writeNew(path, chunks, signal);
      return { blob: await disk.blob(path), release: () => disk.remove(path) };
    },
  };
  return store;
}
