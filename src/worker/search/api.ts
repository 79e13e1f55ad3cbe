import { createMemoryDisk } from '../../storage/memory-disk.ts';
import type { WorkerEnv } from '../env.ts';
import type { CallContext } from '../protocol.ts';
import { searchLibrary, type SearchHit } from './scan-baseline.ts';
import { createLibraryIndex, type IndexProgress, type LibraryIndex, type SearchOptions, type SearchResults } from './library-index.ts';
import { indexBytes } from './segments.ts';

export type { SearchHit } from './scan-baseline.ts';
export type { EntryHit, IndexProgress, SearchOptions, SearchResults, SessionResult } from './library-index.ts';
export type { SnippetPart } from './snippet.ts';

const noContext: CallContext = { signal: new AbortController().signal, progress: () => undefined };
// Writes are followed by indexing this much later (a burst of labels is indexed once, and a session
// opened right after its import is not read while the worker indexes it). A query never waits for
// this: it brings the index up to date itself.
const INDEX_DELAY = 2000;
// Background indexing waits while the reader is being used (opening a session just imported must
// not share the worker with indexing it): each reader call puts a pending sync this far back.
const READER_QUIET = 2000;

/** The library's search index, built over the env's store; its parts go to `env.searchDisk`. */
export function createSearchIndexOf(
  env: WorkerEnv,
): LibraryIndex & { syncSoon(): void; readerBusy(): void; importStarted(): void; commitGathered(): Promise<void> } {
  const index = createLibraryIndex(env.store, env.searchDisk ?? createMemoryDisk(), env.searchReaderIdleMs, env.searchParts);
  let timer: ReturnType<typeof setTimeout> | null = null;
  // Import calls under way. Their new sessions' parts are made from the bytes they write and placed
  // by their commit: a background sync meanwhile would find a session written but not yet placed,
  // and read its whole file again to index it (a big session: several times the import's own work).
  // It waits for the imports to end (each end schedules it again); a query's sync does not wait.
  let imports = 0;
  const schedule = (delay: number) => {
    if (timer) clearTimeout(timer);
    // A failure here is met again, and reported, by the next query's own sync.
    timer = setTimeout(() => {
      timer = null;
      if (imports === 0) void index.sync().catch(() => undefined);
    }, delay);
  };
  return {
    ...index,
    syncSoon: () => schedule(INDEX_DELAY),
    readerBusy() {
      if (timer) schedule(READER_QUIET);
    },
    /** An import call starts (its `commit` ends it). */
    importStarted() {
      imports++;
    },
    /** Writes what the sink gathered outside an import call (a sync round's new sessions): no import ends. */
    commitGathered: () => index.commit(),
    // A commit without an import call (none today) must not leave the count below zero, which
    // would stop the background sync for the worker's life.
    commit: () =>
      index.commit().finally(() => {
        imports = Math.max(0, imports - 1);
      }),
  };
}

// Queries a worker asks itself once it has first read a non-empty index (see `syncSearchIndex`):
// a word and a two-letter prefix, so its word, prefix, hits and snippet paths have all run once.
const WARM_UP = ['e', 'th'];

/** The search half of the worker API. */
export function createSearchApi(index: LibraryIndex, env: WorkerEnv) {
  let warmed = false;
  const progressOf = (ctx: CallContext) => (p: IndexProgress) => ctx.progress({ done: p.done, total: p.total, label: p.label });
  return {
    /** Searches the library through its index; while the index is brought to the files, progress says how far. */
    async search(params: { query: string } & SearchOptions, ctx: CallContext = noContext): Promise<SearchResults> {
      const { query, ...options } = params;
      return index.search(query, options, progressOf(ctx), ctx.signal);
    },

    /**
     * Brings the search index to the files now (progress in sessions); how many sessions it holds.
     * The search box calls it when it gets focus: the first time the index holds sessions, it also
     * answers a few throwaway queries (first screens): a fresh worker's first keystrokes take several
     * times as long as the same keystrokes later (code not yet optimized, the first collection of the
     * heap the index's reading left), and that is better
     * paid between the focus and the first key.
     */
    async syncSearchIndex(_params: Record<string, never> = {}, ctx: CallContext = noContext): Promise<{ sessions: number }> {
      await index.sync(progressOf(ctx), ctx.signal);
      if (!warmed && index.size() > 0) {
        warmed = true;
        for (const q of WARM_UP) await index.search(q, { limit: 8 }, undefined, ctx.signal).catch(() => undefined);
      }
      return { sessions: index.size() };
    },

    /** Sessions in the search index and the bytes its parts take on disk. */
    async searchIndexInfo(_params: Record<string, never> = {}, _ctx?: CallContext): Promise<{ sessions: number; bytes: number }> {
      return { sessions: index.size(), bytes: env.searchDisk ? await indexBytes(env.searchDisk) : 0 };
    },

    /** A full scan (substring, no index): only the search bench's baseline calls it. */
    async searchScan(params: { query: string; limit?: number }, ctx: CallContext = noContext): Promise<SearchHit[]> {
      return searchLibrary(env.store, params.query, params.limit ?? 50, ctx.signal);
    },
  };
}
