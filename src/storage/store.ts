// The session store over a Disk: original bytes in sessions/, omp image blobs in blobs/, deleted
// sessions in trash/ (for undo), and index.json, a cache of one summary per session that is
// checked against the files when the store opens and rebuilt whenever it is missing or unreadable.
import { diskChunks, once, tap } from './chunks.ts';
import { isNotFound, StoreError } from './errors.ts';
import { decodeIndex, encodeIndex, sortSummaries } from './index-file.ts';
import { createLinks, type ParentLink } from './links.ts';
import { withLock, withLockIfFree } from './locks.ts';
import { BLOBS_DIR, baseId, idFromFileName, INDEX_PATH, SESSIONS_DIR, sessionPath, TRASH_DIR, variantId } from './names.ts';
import { envelopePath, readEnvelopeFile, writeEnvelopeFile } from './envelope-index.ts';
import type { SessionScan } from './scan.ts';
import { type Conversion, createAnyScanner, dropConversion, freshConversion, keepConversion } from './foreign.ts';
import type { ChangeListener, Disk, SessionStore, SessionSummary } from './types.ts';

/** How the store is built: its clock, who hears about changes, how long index writes are batched. */
export interface StoreOptions {
  now?: () => number;
  /** Called with the ids whose index records were just written (the worker tells other tabs). */
  onChange?: ChangeListener;
  /** ms to gather index updates before writing index.json (0: write at once). */
  flushDelay?: number;
  /** Deleted sessions older than this (ms) are purged when the store opens. */
  trashTtl?: number;
}

/** The store (the SessionStore interface, built over a Disk). */
export type Store = SessionStore;

const INDEX_LOCK = 'rho-sessions:index';
// One small file per session being appended to or replaced: written before the write ("writing",
// with the size to roll back to) and turned into "done" after it, removed once the index holds the
// result. A worker that dies mid-write leaves it behind; the next writer of that session, or the
// next store to open, rolls a half-done append back (old state) and re-reads the file into the index.
const JOURNAL_DIR = 'journal';
interface JournalMark {
  size: number | null;
  done: boolean;
}
const journalPath = (id: string) => `${JOURNAL_DIR}/${encodeURIComponent(id)}`;
const writeLockName = (id: string) => `rho-sessions:write:${baseId(id)}`;
const SPOOL_DIR = 'spool';
const SPOOL_TTL = 24 * 3600 * 1000;
const SHA256 = /^[0-9a-f]{64}$/;

function variantNumber(id: string): number {
  return Number(/~(\d+)$/.exec(id)?.[1] ?? 0);
}

/** Builds the store over a disk. Nothing is read until the first call. */
export function createStore(disk: Disk, options: StoreOptions = {}): Store {
  const now = options.now ?? (() => Date.now());
  const flushDelay = options.flushDelay ?? 1000;
  const trashTtl = options.trashTtl ?? 7 * 24 * 3600 * 1000;
  // Index records written by this store but not yet in index.json (null: deleted).
  const pending = new Map<string, SessionSummary | null>();
  let ready: Promise<void> | null = null;
  let checking: Promise<unknown> = Promise.resolve();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let spools = 0;
  let pendingVersion = 0;
  let merged: { list: SessionSummary[] | null; version: number; map: Map<string, SessionSummary> } | null = null;
  // True while index.json could not be written (quota) and `pending` holds the whole index.
  let memoryIndex = false;
  // Writes in progress per session id in this store (their journal marks are not ours to remove).
  const active = new Map<string, number>();
  // Subagent transcripts' parents (links/), put on every summary made of a child.
  const links = createLinks(disk);

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
  const rollBack = async (_id: string, path: string, mark: JournalMark | null) => {
    if (!mark || mark.done || mark.size === null) return;
    const size = await disk.size(path);
    if (size !== null && size > mark.size) await disk.truncate(path, mark.size);
  };

  // Around every in-place write of a session (the caller holds its write lock, so a "writing" mark
  // found here was left by a writer that died).
  const journaled = async <T>(id: string, path: string, kind: 'append' | 'replace', write: () => Promise<T>): Promise<T> => {
    active.set(id, (active.get(id) ?? 0) + 1);
    try {
      await rollBack(id, path, await readMark(id));
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
  };

  const summaryOf = (id: string, path: string, size: number, scan: SessionScan, modified: number, variantOf?: string): SessionSummary => {
    const d = scan.digest;
    const s: SessionSummary = {
      id,
      path,
      title: d.title,
      firstMessage: d.firstMessage,
      cwd: d.cwd,
      created: d.created,
      modified,
      size,
      entryCount: d.entryCount,
      branchCount: d.branchCount,
      model: d.model,
      totals: { ...d.totals },
      usage: d.usage,
      problems: d.problems,
    };
    if (d.agent) s.agent = d.agent;
    // Another agent's file: what the pi view reads is its conversion, of this many bytes.
    const conversion = (scan as { conversion?: Conversion }).conversion;
    if (conversion) s.piSize = conversion.bytes.length;
    // A variant keeps the header id of the session it diverged from.
    const headerId = d.header?.id;
    const of = variantOf ?? (headerId !== undefined && headerId !== id ? headerId : undefined);
    if (of !== undefined) s.variantOf = of;
    const link = links.peek(id);
    if (link) {
      s.parentOf = link.parentOf;
      s.subagent = link.subagent;
    }
    return s;
  };

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

  const writeIndexFile = async (list: Iterable<SessionSummary>) => {
    cache = null;
    await disk.writeNew(INDEX_PATH, once(encodeIndex(list)));
    cache = null;
  };

  // One pass over a stored file; another agent's file is converted, and the conversion kept for the pi view.
  const scanPath = async (path: string): Promise<SessionScan> => {
    const scanner = createAnyScanner({ file: path.slice(SESSIONS_DIR.length + 1) });
    for await (const chunk of diskChunks(disk, path)) scanner.push(chunk);
    return kept(path, scanner.finish());
  };
  const kept = async (path: string, scan: ReturnType<ReturnType<typeof createAnyScanner>['finish']>): Promise<SessionScan> => {
    const id = idFromFileName(path.slice(SESSIONS_DIR.length + 1));
    if (scan.conversion && scan.key && id !== null) await keepConversion(disk, id, scan.key, scan.conversion);
    return scan;
  };
  // Another agent's file must never get pi's lines: appends of pi entries and rewrites are refused.
  const refuseForeign = async (id: string) => {
    const s = (await indexed()).get(id);
    if (s?.piSize !== undefined) {
      const who = s.agent === 'codex' ? 'Codex' : 'Claude Code';
      throw new StoreError('unsupported', `Written by ${who}: read-only here. Export it as a pi session to continue it in pi.`, s.path);
    }
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
      next.push(summaryOf(id, path, stat.size, await scanPath(path), stat.modified));
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
    for (const t of await disk.list(TRASH_DIR)) if (now() - t.modified > trashTtl) await disk.remove(`${TRASH_DIR}/${t.name}`);
    // Scratch files: imports release theirs; an export's stays readable for a day.
    for (const t of await disk.list(SPOOL_DIR)) if (now() - t.modified > SPOOL_TTL) await disk.remove(`${SPOOL_DIR}/${t.name}`);
    return changedIds;
  };

  // The session ids that have journal marks.
  const markedIds = async (): Promise<string[]> => {
    const ids: string[] = [];
    for (const name of await disk.names(JOURNAL_DIR)) {
      try {
        ids.push(decodeURIComponent(name));
      } catch {
        // Not a name we wrote.
      }
    }
    return ids;
  };

  // Settles what a dead writer left for one session (the caller holds its write lock): a half-done
  // append is rolled back, and the file is re-read into the index. Returns whether it re-read.
  const settle = async (id: string): Promise<boolean> => {
    const mark = await readMark(id);
    if (!mark) return false;
    const path = sessionPath(id);
    await rollBack(id, path, mark);
    if ((await disk.size(path)) === null) {
      await disk.remove(journalPath(id));
      return false;
    }
    const known = pending.get(id) ?? (await readIndexFile())?.find((x) => x.id === id);
    await rescan(id, path, known?.variantOf);
    if (!mark.done) await writeMark(id, { size: null, done: true });
    return true;
  };

  // Sessions a dead writer left marks for, settled when the store opens. A session whose lock is
  // taken is skipped: its live writer (or this worker, mid-call) settles it on taking the lock.
  const recover = async () => {
    let found = false;
    for (const id of await markedIds()) {
      if (active.has(id)) continue;
      // Another worker of this origin may be settling it right now (two tabs opening after a
      // crash): wait a moment for it, so the first list already tells the truth.
      await withLockIfFree(
        writeLockName(id),
        async () => {
          if (await settle(id)) found = true;
        },
        2000,
      );
    }
    if (found) await flush();
  };

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
        .then(() => withLock(INDEX_LOCK, () => reconcile(false)))
        .then((ids) => ids.length && options.onChange?.(ids))
        .catch(() => undefined);
    }
    return ready;
  };

  const indexed = async (): Promise<Map<string, SessionSummary>> => {
    await open();
    let list = await readIndexFile();
    if (list === null && !memoryIndex) {
      // Lost or corrupted since we opened (another tab, a crash): rebuild it from the files.
      await withLock(INDEX_LOCK, () => reconcile(true));
      list = (await readIndexFile()) ?? [];
    }
    // Reused while neither index.json (same parsed list) nor the pending records changed.
    if (merged && merged.list === list && merged.version === pendingVersion) return merged.map;
    const map = new Map((list ?? []).map((s) => [s.id, s]));
    for (const [id, s] of pending) {
      if (s) map.set(id, s);
      else map.delete(id);
    }
    merged = { list, version: pendingVersion, map };
    return map;
  };

  const flush = async () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (pending.size === 0) return;
    const applied = new Map(pending);
    await withLock(INDEX_LOCK, async () => {
      const current = (await readIndexFile()) ?? null;
      if (current === null && !memoryIndex) await reconcile(true);
      const map = new Map(((await readIndexFile()) ?? []).map((s) => [s.id, s]));
      for (const [id, s] of applied) {
        if (s) map.set(id, s);
        else map.delete(id);
      }
      await writeIndexFile(map.values());
      memoryIndex = false;
    });
    for (const [id, s] of applied) if (pending.get(id) === s) pending.delete(id);
    pendingVersion++;
    // The index now holds these sessions as they are on disk: their "done" marks can go.
    for (const id of applied.keys()) {
      if (active.has(id)) continue;
      if ((await readMark(id))?.done) await disk.remove(journalPath(id)).catch(() => undefined);
    }
    options.onChange?.([...applied.keys()]);
  };

  const record = (s: SessionSummary | null, id: string) => {
    pending.set(id, s);
    pendingVersion++;
    if (timer) clearTimeout(timer);
    // A failed background flush keeps its records pending (listing still shows them) for the next one.
    timer = setTimeout(() => void flush().catch(() => undefined), flushDelay);
  };

  const existing = async (id: string): Promise<string> => {
    await open();
    const path = sessionPath(id);
    if ((await disk.size(path)) === null) throw new StoreError('not-found', `No session ${id} is stored.`);
    return path;
  };

  const rescan = async (id: string, path: string, variantOf?: string): Promise<SessionSummary> => {
    const size = (await disk.size(path)) ?? 0;
    const s = summaryOf(id, path, size, await scanPath(path), now(), variantOf);
    record(s, id);
    return s;
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
      return s.piSize === undefined ? null : freshConversion(disk, id, s.path);
    },
    readEnvelopes: (id) => readEnvelopeFile(disk, id),
    writeEnvelopes: (id, bytes) => writeEnvelopeFile(disk, id, bytes),
    async readBlob(sha256) {
      if (!SHA256.test(sha256)) return null;
      try {
        return await disk.blob(`${BLOBS_DIR}/${sha256}`);
      } catch (e) {
        if (isNotFound(e)) return null;
        throw e;
      }
    },
    async hasBlob(sha256) {
      return SHA256.test(sha256) && (await disk.size(`${BLOBS_DIR}/${sha256}`)) !== null;
    },
    async writeBlob(sha256, bytes) {
      if (!SHA256.test(sha256)) throw new StoreError('invalid-input', `Not a sha256: ${sha256}`);
      await disk.writeNew(`${BLOBS_DIR}/${sha256}`, once(bytes));
    },

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
    async family(headerId) {
      // The files decide, not only the index: another tab may have written this session and not
      // yet flushed its index records (callers hold the session's write lock, so files are settled).
      // A session seen for the first time costs one look at the disk.
      const mainStat = await disk.stat(sessionPath(headerId));
      if (!mainStat) return [];
      const map = await indexed();
      const ids = new Set<string>([headerId]);
      for (const s of map.values()) if (s.variantOf === headerId) ids.add(s.id);
      for (let n = 2; ; n++) {
        const v = variantId(headerId, n);
        if (ids.has(v)) continue;
        if ((await disk.size(sessionPath(v))) === null) break;
        ids.add(v);
      }
      const out: SessionSummary[] = [];
      for (const id of ids) {
        const path = sessionPath(id);
        const stat = id === headerId ? mainStat : await disk.stat(path);
        if (!stat) continue;
        const known = map.get(id);
        out.push(known && known.size === stat.size ? known : await rescan(id, path, id === headerId ? undefined : headerId));
      }
      return out.sort((a, b) => variantNumber(a.id) - variantNumber(b.id));
    },
    async latest() {
      return (await store.list())[0]?.path ?? null;
    },

    async scan(id) {
      return scanPath(await existing(id));
    },
    async create(id, chunks, opts = {}) {
      await open();
      const path = sessionPath(id);
      // Never replace a session by creating one: that is replace()'s job, under the write lock.
      if (!opts.checked && (await disk.size(path)) !== null) throw new StoreError('conflict', `A session ${id} is already stored.`);
      const scanner = createAnyScanner({ conversion: opts.conversion, file: path.slice(SESSIONS_DIR.length + 1), onValue: opts.onValue });
      const size = await disk.writeNew(
        path,
        tap(chunks, (c) => scanner.push(c)),
        opts.signal,
      );
      const scan = await kept(path, scanner.finish());
      opts.onScan?.(scan);
      const s = summaryOf(id, path, size, scan, now(), opts.variantOf);
      record(s, id);
      return s;
    },
    async appendRaw(id, bytes, signal) {
      const path = await existing(id);
      const before = await store.get(id);
      return journaled(id, path, 'append', async () => {
        await disk.append(path, bytes, signal);
        return rescan(id, path, before?.variantOf);
      });
    },
    async appendLines(id, bytes) {
      const path = await existing(id);
      await refuseForeign(id);
      const before = await store.get(id);
      return journaled(id, path, 'append', async () => {
        const size = (await disk.size(path)) ?? 0;
        // pi loses the next entry after a torn last line (§6): end the file with "\n" first, in the same write.
        const torn = size > 0 && (await disk.read(path, size - 1, size))[0] !== 10;
        const out = torn ? new Uint8Array(bytes.length + 1) : bytes;
        if (torn) {
          out[0] = 10;
          out.set(bytes, 1);
        }
        await disk.append(path, out);
        return rescan(id, path, before?.variantOf);
      });
    },
    async replace(id, chunks) {
      const path = await existing(id);
      await refuseForeign(id);
      const before = await store.get(id);
      // writeNew swaps in a whole file: nothing to roll back, only the index to re-read after a crash.
      return journaled(id, path, 'replace', async () => {
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
      await dropConversion(disk, id);
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
    withWriteLock(id, fn, signal) {
      return withLock(
        writeLockName(id),
        async () => {
          // Holding the lock, any mark of this session (or its variants) was left by a dead writer:
          // settle it before the caller reads sizes or bytes.
          const base = baseId(id);
          for (const marked of await markedIds()) if (baseId(marked) === base && !active.has(marked)) await settle(marked);
          return fn();
        },
        'exclusive',
        signal,
      );
    },
    flush,
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
      await withLock(INDEX_LOCK, () => reconcile(true));
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
