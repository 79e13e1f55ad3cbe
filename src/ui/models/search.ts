import { signal } from '@preact/signals';
import { describeError, isAborted, isMissingMethod, library, type SearchResults } from './calls.ts';
import { FIRST_SCREEN, PAGE } from './search-pages.ts';

/** How search results are ordered. */
export type SearchSort = 'relevance' | 'date';

/** Results for the search box (null when not searching). */
export const results = signal<SearchResults | null>(null);
/** The query the results answer. */
export const resultsFor = signal('');
/** The order of results. */
export const searchSort = signal<SearchSort>('relevance');
/** While the index is brought to the files: how far (sessions). */
export const indexing = signal<{ done: number; total: number; label: string } | null>(null);
/** Why the last search failed, if it did. */
export const searchError = signal<string | null>(null);
/** A search is running. */
export const searching = signal(false);

let current: AbortController | null = null;
let run = 0;
let preparing = false;

/**
 * Has the worker read the search index (building what is missing) while the person is about to type:
 * the search box calls it when it gets focus, so the first keystroke does not wait for the index's
 * reading (0.2–0.7 s for 1,000 sessions). Quiet: a query made meanwhile waits for the same work and
 * shows its progress, and any error.
 */
export function prepareSearch(): void {
  if (preparing) return;
  preparing = true;
  library
    .syncSearchIndex({})
    .catch(() => undefined)
    .finally(() => {
      preparing = false;
    });
}

/**
 * Searches the library's index (the previous search, if still running, is cancelled: its answer is
 * never shown). A new query answers its first screen first, then the rest of its page.
 */
export async function search(text: string, options: { more?: boolean } = {}): Promise<void> {
  const query = text.trim();
  current?.abort();
  if (!query) {
    run++;
    results.value = null;
    resultsFor.value = '';
    indexing.value = null;
    searching.value = false;
    return;
  }
  const mine = ++run;
  const controller = new AbortController();
  current = controller;
  const base = options.more && results.value ? results.value : null;
  searching.value = true;
  const ask = (limit: number, after: SearchResults | null) =>
    library.search(
      // A trailing space ends the last word: it is no longer a prefix.
      { query: text, sort: searchSort.value, limit, offset: after?.next ?? 0, shown: after?.sessions.length ?? 0, typing: !/\s$/.test(text) },
      {
        signal: controller.signal,
        onProgress: (p) => {
          if (mine === run) indexing.value = p.total > 0 && p.done < p.total ? { done: p.done, total: p.total, label: p.label ?? 'Indexing' } : null;
        },
      },
    );
  const show = (found: SearchResults, after: SearchResults | null) => {
    results.value = after ? { ...found, sessions: [...after.sessions, ...found.sessions] } : found;
    resultsFor.value = query;
    searchError.value = null;
  };
  try {
    const found = await ask(base ? PAGE : FIRST_SCREEN, base);
    if (mine !== run) return;
    show(found, base);
    if (!base && found.more) {
      // The rest of the first page, unless the next keystroke comes first (it aborts this call).
      const shown = results.value;
      const rest = await ask(PAGE - FIRST_SCREEN, shown);
      if (mine !== run) return;
      show(rest, shown);
    }
  } catch (e) {
    if (mine !== run || isAborted(e)) return;
    searchError.value = isMissingMethod(e) ? 'Search is not available in this build.' : describeError(e);
    results.value = { sessions: [], total: 0, more: false, next: 0, unknown: [] };
  } finally {
    if (mine === run) {
      searching.value = false;
      indexing.value = null;
    }
  }
}
