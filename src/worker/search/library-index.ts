// The library's search index in the worker: one MiniSearch document per session (its title, project
// and distinct words), which finds the sessions where every word of a query occurs (prefixes while
// typing, small typos forgiven); then each shown session's entry documents (read from its part on
// disk, kept in a small cache) give the entries, their snippets and the entry-level filters.
// Every query first brings the index to the files (`sync`): sessions whose parts are missing or were
// built from another size are rebuilt from their bytes before it answers, so an answer is never stale.
import MiniSearch from 'minisearch';
import { CHUNK_SIZE } from '../../storage/chunks.ts';
import type { Disk, SessionStore, SessionSummary } from '../../storage/types.ts';
import { createExtractor, type EntryDoc, type SessionMeta, sessionTerms } from './extract.ts';
import { type SessionResult, selectHits } from './hits.ts';
import { isEmptyQuery, type ParsedQuery, parseQuery } from './query.ts';
import { idOfPart, readEntriesPart, readWordsPart, removeParts, SEARCH_DIR, writeParts } from './shards.ts';
import { words } from './tokens.ts';

export type { EntryHit, SessionResult } from './hits.ts';

/** How a query's results are ordered and paged. */
export interface SearchOptions {
  sort?: 'relevance' | 'date';
  /** Sessions to return (default 20), after skipping `offset`. */
  limit?: number;
  offset?: number;
  /** Entry hits given per session (default 3). */
  perSession?: number;
  /** The last word is still being typed (default true): it matches as a prefix. */
  typing?: boolean;
}

/** What a query answers. */
export interface SearchResults {
  sessions: SessionResult[];
  /** Sessions the index matched (phrases and entry filters are checked only on the ones returned). */
  total: number;
  /** More sessions may follow `offset + limit`. */
  more: boolean;
  /** Filters that were not understood. */
  unknown: string[];
}

/** Progress of bringing the index to the files. */
export interface IndexProgress {
  done: number;
  total: number;
  label: string;
}

interface SessionDoc {
  id: string;
  title: string;
  cwd: string;
  words: string;
}

interface Cached {
  docs: EntryDoc[];
  chars: number;
}

const decoder = () => new TextDecoder();

/** Builds the index over a store; its parts live on `disk` (the store's own, in `search/`). */
export function createLibraryIndex(store: SessionStore, disk: Disk, options: { cacheChars?: number } = {}) {
  const cacheChars = options.cacheChars ?? 16_000_000;
  const ms = new MiniSearch<SessionDoc>({
    fields: ['title', 'cwd', 'words'],
    // Words were normalized when the part was made; titles and paths are split here.
    tokenize: (text, field) => (field === 'words' ? text.split(' ') : words(text)),
    processTerm: (t) => t || null,
    searchOptions: { tokenize: (text) => text.split(' '), processTerm: (t) => t },
  });
  const metas = new Map<string, SessionMeta>();
  const cache = new Map<string, Cached>();
  let cachedChars = 0;
  let loadedOnce = false;
  let running: Promise<void> | null = null;

  const forget = (id: string) => {
    if (ms.has(id)) ms.discard(id);
    metas.delete(id);
    const c = cache.get(id);
    if (c) cachedChars -= c.chars;
    cache.delete(id);
  };

  const remember = (meta: SessionMeta, wordsOf: string) => {
    metas.set(meta.id, meta);
    ms.add({ id: meta.id, title: meta.title, cwd: meta.cwd, words: wordsOf });
  };

  const keep = (id: string, docs: EntryDoc[]) => {
    const chars = docs.reduce((n, d) => n + d.text.length, 0);
    cache.set(id, { docs, chars });
    cachedChars += chars;
    for (const [old, c] of cache) {
      if (cachedChars <= cacheChars || old === id) break;
      cache.delete(old);
      cachedChars -= c.chars;
    }
  };

  // Reads a session's bytes (as far as the store's size says) and makes its parts.
  const build = async (s: SessionSummary, signal?: AbortSignal): Promise<void> => {
    const x = createExtractor(s.id, s.title ?? s.firstMessage ?? '');
    const dec = decoder();
    let carry = '';
    for (let at = 0; at < s.size; at += CHUNK_SIZE) {
      signal?.throwIfAborted();
      const chunk = await store.readRange(s.id, at, Math.min(at + CHUNK_SIZE, s.size));
      const lines = (carry + dec.decode(chunk, { stream: true })).split('\n');
      carry = lines.pop() ?? '';
      for (const line of lines) x.line(line);
    }
    carry += dec.decode();
    if (carry) x.line(carry);
    const { meta, docs } = x.finish(s.size);
    const wordsOf = sessionTerms(docs).join(' ');
    // A full disk keeps the index in memory only; it is rebuilt from the files next time.
    await writeParts(disk, { meta, words: wordsOf }, docs).catch(() => undefined);
    forget(s.id);
    remember(meta, wordsOf);
    keep(s.id, docs);
  };

  const syncOnce = async (progress?: (p: IndexProgress) => void, signal?: AbortSignal) => {
    const list = await store.list();
    const want = new Map(list.map((s) => [s.id, s]));
    for (const id of [...metas.keys()]) {
      if (want.has(id)) continue;
      forget(id);
      await removeParts(disk, id);
    }
    if (!loadedOnce) {
      // Parts of sessions that are gone (deleted by another tab, or while this worker was away).
      for (const name of await disk.names(SEARCH_DIR)) {
        const id = idOfPart(name);
        if (id === null || !want.has(id)) await disk.remove(`${SEARCH_DIR}/${name}`);
      }
    }
    const todo = list.filter((s) => metas.get(s.id)?.size !== s.size || metas.get(s.id)?.title !== (s.title ?? s.firstMessage ?? ''));
    let done = 0;
    for (const s of todo) {
      signal?.throwIfAborted();
      progress?.({ done, total: todo.length, label: loadedOnce ? 'Indexing' : 'Reading the search index' });
      const part = metas.has(s.id) ? null : await readWordsPart(disk, s.id, s.size);
      try {
        if (part && part.meta.title === (s.title ?? s.firstMessage ?? '')) {
          forget(s.id);
          remember(part.meta, part.words);
        } else await build(s, signal);
      } catch (e) {
        // Deleted meanwhile: the next sync drops it.
        if ((e as { code?: string }).code !== 'not-found') throw e;
      }
      done++;
    }
    if (todo.length) progress?.({ done, total: todo.length, label: 'Indexed' });
    loadedOnce = true;
  };

  /** Brings the index to the files (one at a time; a call during a sync waits for it, then checks again). */
  const sync = async (progress?: (p: IndexProgress) => void, signal?: AbortSignal): Promise<void> => {
    while (running) await running.catch(() => undefined);
    running = syncOnce(progress, signal);
    try {
      await running;
    } finally {
      running = null;
    }
  };

  const entries = async (meta: SessionMeta): Promise<EntryDoc[]> => {
    const hit = cache.get(meta.id);
    if (hit) {
      // Most recently used last.
      cache.delete(meta.id);
      cache.set(meta.id, hit);
      return hit.docs;
    }
    const docs = await readEntriesPart(disk, meta.id, meta.size);
    if (docs) {
      keep(meta.id, docs);
      return docs;
    }
    // The part went missing or was damaged: rebuild it from the file.
    const s = await store.get(meta.id);
    if (!s) return [];
    await build(s);
    return cache.get(meta.id)?.docs ?? [];
  };

  const sessionPasses = (q: ParsedQuery, m: SessionMeta) =>
    q.project.every((p) => m.cwd.toLowerCase().includes(p)) &&
    q.model.every((p) => m.models.some((x) => x.includes(p))) &&
    q.tool.every((t) => m.tools.includes(t)) &&
    (q.after === null || m.last >= q.after) &&
    (q.before === null || m.created < q.before || (m.created === 0 && m.last < q.before)) &&
    q.has.every((h) => (m.flags & (h === 'error' ? 1 : h === 'image' ? 2 : 4)) !== 0);

  /** Answers a query (after bringing the index to the files). */
  const search = async (input: string, opts: SearchOptions = {}, progress?: (p: IndexProgress) => void, signal?: AbortSignal): Promise<SearchResults> => {
    await sync(progress, signal);
    const q = parseQuery(input, opts.typing ?? true);
    if (isEmptyQuery(q)) return { sessions: [], total: 0, more: false, unknown: q.unknown };
    let candidates: Array<{ meta: SessionMeta; score: number; terms: string[] }>;
    if (q.words.length) {
      const found = ms.search(q.words.map((w) => w.word).join(' '), {
        combineWith: 'AND',
        prefix: (_t, i) => (q.words[i]?.prefix ?? false) && (q.words[i]?.word.length ?? 0) >= 2,
        fuzzy: (_t, i) => q.words[i]?.typos || false,
        maxFuzzy: 2,
        boost: { title: 3, cwd: 2 },
      });
      candidates = found.map((r) => ({ meta: metas.get(String(r.id))!, score: r.score, terms: r.terms })).filter((c) => c.meta);
    } else candidates = [...metas.values()].map((meta) => ({ meta, score: 0, terms: [] }));
    candidates = candidates.filter((c) => sessionPasses(q, c.meta));
    if (opts.sort === 'date' || !q.words.length) candidates.sort((a, b) => b.meta.last - a.meta.last || b.score - a.score);
    const limit = opts.limit ?? 20;
    const out: SessionResult[] = [];
    let i = opts.offset ?? 0;
    for (; i < candidates.length && out.length < limit; i++) {
      signal?.throwIfAborted();
      const c = candidates[i];
      const r = selectHits(q, c.meta, c.score, c.terms, await entries(c.meta), opts.perSession ?? 3);
      if (r) out.push(r);
    }
    return { sessions: out, total: candidates.length, more: i < candidates.length, unknown: q.unknown };
  };

  return {
    sync,
    search,
    /** Sessions in the index. */
    size: () => metas.size,
    /** Drops what is in memory (the parts on disk stay): the next sync reads them again. */
    unload() {
      for (const id of [...metas.keys()]) forget(id);
      loadedOnce = false;
    },
  };
}

/** The library's search index, as the worker API holds it. */
export type LibraryIndex = ReturnType<typeof createLibraryIndex>;
