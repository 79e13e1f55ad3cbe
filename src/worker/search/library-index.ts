// The library's search index in the worker: one MiniSearch document per session (its title, project
// and distinct words), which finds the sessions where every word of a query occurs (prefixes while
// typing, small typos forgiven); then each shown session's entry documents (read from its part on
// disk, kept in a small cache) give the entries, their snippets and the entry-level filters.
// Every query first brings the index to the files (`sync`): sessions whose parts are missing or were
// built from another size are rebuilt from their bytes before it answers, so an answer is never stale.
// The manifest on disk is the truth between tabs: a sync (under a Web Lock) first follows it, then
// the session files, and writes what it rebuilt as one new segment.
import MiniSearch from 'minisearch';
import type { Disk, SessionStore, SessionSummary } from '../../storage/types.ts';
import { answer, type SearchOptions, type SearchResults, type SessionDoc } from './answer.ts';
import type { SessionMeta } from './extract.ts';
import { createImportBatch, type Fresh, freshFromFile, titleOf } from './import-batch.ts';
import { createManifestCache } from './manifest-cache.ts';
import type { PartJobs } from './part-jobs.ts';
import { createPartReads } from './part-reads.ts';
import { createSegmentFiles } from './segment-files.ts';
import { createSharedSync, type IndexProgress } from './shared-sync.ts';
import { tidySegments } from './segments-tidy.ts';
import { createSegmentWriter, emptyManifest, type Manifest, type ManifestEntry, readWords, sameRecords } from './segments.ts';
import { growAll, mayHaveGrown } from './grow.ts';
import { words } from './tokens.ts';

export type { SearchOptions, SearchResults } from './answer.ts';
export type { EntryHit, SessionResult } from './hits.ts';

export type { IndexProgress } from './shared-sync.ts';

// A segment is written once this much is gathered (bounds the memory of a rebuild).
const SEGMENT_BYTES = 8 * 1024 * 1024;
/**
 * Builds the index over a store; its parts live on `disk` (the store's own, in `search/`); `readerIdleMs`: see segment-files.ts;
 * `parts`: where an import's sessions get their parts built (part-jobs.ts; in this worker by default).
 */
export function createLibraryIndex(store: SessionStore, disk: Disk, readerIdleMs?: number, parts?: PartJobs) {
  const ms = new MiniSearch<SessionDoc>({
    fields: ['title', 'cwd', 'words'],
    // Words were normalized when the part was made; titles and paths are split here.
    tokenize: (text, field) => (field === 'words' ? text.split(' ') : words(text)),
    processTerm: (t) => t || null,
    searchOptions: { tokenize: (text) => text.split(' '), processTerm: (t) => t },
    // A discarded session's terms are cleaned up by the sync that discarded it (`settle`), before any answer: until
    // then they still count in its words' scores, and an answer would not be the one a fresh index gives.
    autoVacuum: false,
  });
  const metas = new Map<string, SessionMeta>();
  // Where each indexed session's records are (as in the manifest this worker last followed).
  const refs = new Map<string, ManifestEntry>();
  // Sessions whose records turned out damaged: rebuilt by the next sync.
  const broken = new Set<string>();
  const manifests = createManifestCache(disk);
  // The segments' files as queries read them (kept open while they type).
  const files = createSegmentFiles(disk, readerIdleMs);
  // The manifest the last sync followed (the same object while the file is unchanged).
  let followed: Manifest | null = null;
  // A record that turns out damaged is rebuilt by a sync before the query goes on.
  const reads = createPartReads(disk, refs, files, async (id) => {
    broken.add(id);
    await sync();
  });
  // Whether this worker has tidied the segments once.
  let tidied = false;
  // The sessions the last sync found in the store (its very records).
  let synced: readonly SessionSummary[] = [];

  // `words`: the session's words as indexed, when known: its document is then removed at once (no cleanup needed).
  const forget = (id: string, words?: string) => {
    const meta = metas.get(id);
    if (ms.has(id) && words !== undefined && meta) ms.remove({ id, title: meta.title, cwd: meta.cwd, words });
    else if (ms.has(id)) ms.discard(id);
    metas.delete(id);
    refs.delete(id);
    reads.drop(id);
  };

  const remember = (meta: SessionMeta, wordsOf: string) => {
    metas.set(meta.id, meta);
    ms.add({ id: meta.id, title: meta.title, cwd: meta.cwd, words: wordsOf });
  };

  const syncOnce = async (progress?: (p: IndexProgress) => void) => {
    const list = await store.list();
    const want = new Map(list.map((s) => [s.id, s]));
    const onDisk = await manifests.read();
    const manifest: Manifest = onDisk ?? emptyManifest();
    let changed = onDisk === null;
    // The sessions whose entries this sync changed: appended to the manifest's log.
    const touched = new Set<string>();
    // 1. Follow the manifest (another tab, or an earlier life of this worker, may have written it).
    for (const id of [...metas.keys()]) {
      const e = manifest.sessions[id];
      const mine = refs.get(id);
      if (!e || !mine || !sameRecords(e, mine)) forget(id);
    }
    // Sessions whose file grew: their new entries are indexed from the new bytes alone (grow.ts).
    const grown: SessionSummary[] = [];
    for (const [id, e] of Object.entries(manifest.sessions)) {
      const s = want.get(id);
      if (!s) {
        delete manifest.sessions[id];
        forget(id);
        touched.add(id);
        changed = true;
      } else if (broken.has(id)) continue;
      else if (mayHaveGrown(e, s)) grown.push(s);
      else if (e.meta.size !== s.size || e.meta.title !== titleOf(s)) broken.add(id);
    }
    const toLoad = Object.values(manifest.sessions).filter((e) => !metas.has(e.meta.id) && !broken.has(e.meta.id) && !grown.some((s) => s.id === e.meta.id));
    const todo = list.filter((s) => broken.has(s.id) || (!metas.has(s.id) && !manifest.sessions[s.id]));
    const total = toLoad.length + todo.length + grown.length;
    let done = 0;
    if (toLoad.length) {
      progress?.({ done, total, label: 'Reading the search index' });
      const words = await readWords(disk, toLoad);
      for (const e of toLoad) {
        const w = words.get(e.meta.id);
        if (w === null || w === undefined) {
          todo.push(want.get(e.meta.id)!);
          continue;
        }
        remember(e.meta, w);
        refs.set(e.meta.id, e);
        done++;
      }
    }
    // 2. Index what was appended to files that grew (one segment for all; taken in once the manifest names it), then rebuild what else changed.
    const grew = grown.length ? await growAll(store, disk, manifest, grown) : [];
    for (const s of grown) if (!grew.some((g) => g.meta.id === s.id)) todo.push(s);
    done += grown.length;
    changed ||= grew.length > 0;
    for (const g of grew) touched.add(g.meta.id);
    let writer = createSegmentWriter(disk);
    const built: Array<Pick<Fresh, 'meta' | 'carry'>> = [];
    const close = async () => {
      for (const [id, ref] of await writer.close()) {
        const { meta, carry } = built.find((f) => f.meta.id === id)!;
        manifest.sessions[id] = { meta, ref, ...(carry ? { carry } : {}) };
        refs.set(id, manifest.sessions[id]);
        touched.add(id);
      }
      built.length = 0;
      writer = createSegmentWriter(disk);
      changed = true;
    };
    for (const s of todo) {
      progress?.({ done, total, label: onDisk ? 'Indexing' : 'Building the search index' });
      try {
        const { meta, part, carry } = await freshFromFile(store, s);
        forget(s.id);
        remember(meta, part.words);
        writer.add(s.id, part);
        built.push({ meta, carry });
      } catch (e) {
        // Deleted meanwhile: the next sync drops it.
        if ((e as { code?: string }).code !== 'not-found') throw e;
      }
      broken.delete(s.id);
      done++;
      if (writer.size() >= SEGMENT_BYTES) await close();
    }
    if (built.length) await close();
    await settle();
    if (total) progress?.({ done: total, total, label: 'Indexed' });
    // 3. The manifest, then segments nothing refers to (dead after a compaction, or left by a crash).
    // A sync that changed nothing (every keystroke's) leaves the segments alone: listing them opens every file.
    // A log that imports let grow past the manifest is folded into it here.
    if (changed || manifests.outgrown()) await manifests.save(manifest, onDisk ? touched : undefined);
    for (const g of grew) {
      forget(g.meta.id, g.before);
      remember(g.meta, g.words);
      refs.set(g.meta.id, manifest.sessions[g.meta.id]);
    }
    // Segments no longer used (rebuilt here, or compacted by another tab) are closed: they may be removed.
    if (changed || manifest !== followed) files.release(new Set(Object.values(manifest.sessions).map((e) => e.ref.seg)));
    followed = manifest;
    if (changed || !tidied) await tidy(manifest);
    tidied = true;
    await manifests.settled(manifest);
    synced = list;
  };

  // Whether the index follows the files already: the store lists the very records the last sync
  // found, and the manifest is still the one it followed. Every keystroke's case: it asks no lock and
  // walks no list of the library's sessions but this one.
  const upToDate = async () => {
    if (!tidied || broken.size || !followed) return false;
    // The two looks at the disk (the session index's file, the manifest's) at once: one wait, not two.
    const [list, current] = await Promise.all([store.list(), manifests.current()]);
    return current === followed && list.length === synced.length && list.every((s, i) => s === synced[i]);
  };

  // Cleans the terms of discarded sessions out of the index at once (a sync's end).
  const settle = async () => {
    if (ms.dirtCount > 0) await ms.vacuum({ batchSize: Number.MAX_SAFE_INTEGER });
  };

  // Removes unreferenced segments; copies live records out of mostly-dead segments.
  const tidy = (manifest: Manifest) =>
    tidySegments(disk, manifest, {
      moved: (id, entry) => refs.set(id, entry),
      release: () => files.release(),
      write: manifests.write,
    });

  // Sessions an import just wrote: in the manifest now, and in this worker's index.
  const batch = createImportBatch(
    disk,
    manifests,
    (f: Fresh, e: ManifestEntry) => {
      forget(f.meta.id);
      remember(f.meta, f.part.words);
      refs.set(f.meta.id, e);
      broken.delete(f.meta.id);
    },
    settle,
    store,
    parts,
  );

  /** Brings the index to the files (one at a time; a call during a sync waits for it, then checks again). */
  const shared = createSharedSync(upToDate, () => files.release(), syncOnce);
  const sync = shared.sync;

  /** Answers a query (after bringing the index to the files). */
  const search = async (input: string, opts: SearchOptions = {}, progress?: (p: IndexProgress) => void, signal?: AbortSignal): Promise<SearchResults> => {
    const source = { ms, metas, part: reads.part, texts: reads.texts };
    // Every keystroke's case: the last sync left the index following the files. Whether it still does
    // (two looks at the disk, slow when the browser is busy) is asked while the answer is made, which
    // stands only when nothing changed; else it is dropped, and the index brought to the files first.
    signal?.throwIfAborted();
    if (!shared.running() && tidied && followed && !broken.size) {
      const guess = new AbortController();
      const stop = () => guess.abort(signal?.reason);
      signal?.addEventListener('abort', stop, { once: true });
      try {
        const answered = answer(source, input, opts, guess.signal);
        answered.catch(() => undefined);
        if (await upToDate().catch(() => false)) return await answered;
        guess.abort();
      } finally {
        signal?.removeEventListener('abort', stop);
      }
    }
    await sync(progress, signal);
    return answer(source, input, opts, signal);
  };

  return {
    sync,
    search,
    /**
     * What an import shows a new session's parsed lines to (import-session.ts `SessionSink`): its
     * part of the index is made on the way and written with the import's next batch.
     */
    sinkFor: batch.sinkFor,
    /** Writes what imports gathered (the end of an import call). */
    commit: batch.commit,
    /** Sessions in the index. */
    size: () => metas.size,
    /** Drops what is in memory (the parts on disk stay): the next sync reads them again. */
    unload() {
      for (const id of [...metas.keys()]) forget(id);
      ms.removeAll();
      files.release();
    },
  };
}

/** The library's search index, as the worker API holds it. */
export type LibraryIndex = ReturnType<typeof createLibraryIndex>;
