// The query side of the library's index: which sessions a parsed query finds (MiniSearch over one
// document per session, then the session-level filters), in relevance or date order, and for the
// page asked for, each session's entry hits (from its facts) and their snippets (from its texts).
import type MiniSearch from 'minisearch';
import type { SessionMeta } from './extract.ts';
import { type SessionResult, selectHits, type TextsOf } from './hits.ts';
import type { Part } from './part.ts';
import { isEmptyQuery, type ParsedQuery, parseQuery } from './query.ts';
import { nextTask } from '../next-task.ts';

/** How a query's results are ordered and paged. */
export interface SearchOptions {
  sort?: 'relevance' | 'date';
  /** Sessions to return (default 20), after skipping `offset`. */
  limit?: number;
  offset?: number;
  /** Sessions already shown from earlier pages (for the count). */
  shown?: number;
  /** Entry hits given per session (default 3). */
  perSession?: number;
  /** The last word is still being typed (default true): it matches as a prefix. */
  typing?: boolean;
}

/** What a query answers. */
export interface SearchResults {
  sessions: SessionResult[];
  /** Sessions found: exact when `more` is false; while more may follow, the sessions the index matched
   * (phrases and entry filters are checked page by page). */
  total: number;
  /** More sessions may follow: ask again with `offset: next`. */
  more: boolean;
  /** Where the next page starts (candidates checked so far). */
  next: number;
  /** Filters that were not understood. */
  unknown: string[];
}

/** A session as the index holds it: its title, project and distinct words. */
export interface SessionDoc {
  id: string;
  title: string;
  cwd: string;
  words: string;
}

/** What answering needs of the index. */
export interface AnswerSource {
  ms: MiniSearch<SessionDoc>;
  metas: ReadonlyMap<string, SessionMeta>;
  /** A session's facts (from the cache, else its records on disk). */
  part(meta: SessionMeta): Promise<Part>;
  /** Ids and texts of some of a session's entries. */
  texts(meta: SessionMeta, part: Part): TextsOf;
}

// Sessions whose facts are read ahead of the one whose hits are being chosen.
const READ_AHEAD = 6;

// A query that may be cancelled lets the worker's messages in (the next keystroke's abort) after this much work.
const YIELD_MS = 10;

const sessionPasses = (q: ParsedQuery, m: SessionMeta) =>
  q.project.every((p) => m.cwd.toLowerCase().includes(p)) &&
  q.model.every((p) => m.models.some((x) => x.includes(p))) &&
  q.tool.every((t) => m.tools.includes(t)) &&
  (q.after === null || m.last >= q.after) &&
  (q.before === null || m.created < q.before || (m.created === 0 && m.last < q.before)) &&
  q.has.every((h) => (m.flags & (h === 'error' ? 1 : h === 'image' ? 2 : 4)) !== 0);

/** Answers a query from an index already brought to the files. */
export async function answer(src: AnswerSource, input: string, opts: SearchOptions = {}, signal?: AbortSignal): Promise<SearchResults> {
  const q = parseQuery(input, opts.typing ?? true);
  if (isEmptyQuery(q)) return { sessions: [], total: 0, more: false, next: 0, unknown: q.unknown };
  let candidates: Array<{ meta: SessionMeta; score: number; terms: string[] }>;
  if (q.words.length) {
    const found = src.ms.search(q.words.map((w) => w.word).join(' '), {
      combineWith: 'AND',
      prefix: (_t, i) => (q.words[i]?.prefix ?? false) && (q.words[i]?.word.length ?? 0) >= 2,
      fuzzy: (_t, i) => q.words[i]?.typos || false,
      maxFuzzy: 2,
      boost: { title: 3, cwd: 2 },
    });
    candidates = found.map((r) => ({ meta: src.metas.get(String(r.id))!, score: r.score, terms: r.terms })).filter((c) => c.meta);
  } else candidates = [...src.metas.values()].map((meta) => ({ meta, score: 0, terms: [] }));
  candidates = candidates.filter((c) => sessionPasses(q, c.meta));
  // Ties go by date, then id: the answer must not depend on the order sessions were indexed in
  // (an import adds them as it writes them, a rebuild as the library lists them).
  const byId = (a: { meta: SessionMeta }, b: { meta: SessionMeta }) => (a.meta.id < b.meta.id ? -1 : a.meta.id > b.meta.id ? 1 : 0);
  if (opts.sort === 'date' || !q.words.length) candidates.sort((a, b) => b.meta.date - a.meta.date || b.score - a.score || byId(a, b));
  else candidates.sort((a, b) => b.score - a.score || b.meta.date - a.meta.date || byId(a, b));
  const limit = opts.limit ?? 20;
  const out: SessionResult[] = [];
  let i = opts.offset ?? 0;
  // The next few sessions' facts are read while this one's hits are chosen (reads wait on the disk;
  // choosing hits is this thread's work).
  const reading = new Map<number, Promise<Part>>();
  const read = (at: number) => {
    let p = reading.get(at);
    if (!p) {
      p = src.part(candidates[at].meta);
      // A read made ahead and then not used (the page filled, or the query was cancelled) is no error.
      p.catch(() => undefined);
      reading.set(at, p);
    }
    return p;
  };
  const snippets: Array<Promise<void>> = [];
  let worked = performance.now();
  for (; i < candidates.length && out.length < limit; i++) {
    if (signal && performance.now() - worked > YIELD_MS) {
      await nextTask();
      worked = performance.now();
    }
    signal?.throwIfAborted();
    const c = candidates[i];
    for (let k = i + 1; k < Math.min(candidates.length, i + 1 + Math.min(READ_AHEAD, limit - out.length - 1)); k++) read(k);
    const part = await read(i);
    reading.delete(i);
    const r = await selectHits(q, c.meta, c.score, c.terms, part, opts.perSession ?? 3, src.texts(c.meta, part));
    if (!r) continue;
    out.push(r.result);
    // The shown sessions' texts are read together once the page is decided.
    snippets.push(r.snippets());
    snippets.at(-1)?.catch(() => undefined);
  }
  await Promise.all(snippets);
  const more = i < candidates.length;
  // Once every candidate was checked, the count is exact (phrases and entry filters drop some).
  const total = more ? candidates.length : (opts.shown ?? 0) + out.length;
  return { sessions: out, total, more, next: i, unknown: q.unknown };
}
