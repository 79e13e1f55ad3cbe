// Find in the open session (the reader's find bar): the worker's hits on the branch on screen, and
// stepping from one to the next.
import { batch, type Signal, signal } from '@preact/signals';
import type { SessionView } from '../../core/view/types.ts';
import { worker } from '../worker.ts';

/** What find reads of the model. */
interface FindOf {
  id: string;
  view: Signal<SessionView | null>;
  /** First item on screen: the hit shown first is the first at or after it. */
  topIndex: Signal<number>;
  error: Signal<string | null>;
  scrollTo: (index: number, align?: 'start' | 'end') => void;
}

/** The find bar's state and its two calls. */
export function createFind({ id, view, topIndex, error, scrollTo }: FindOf) {
  const query = signal('');
  const hits = signal<Array<{ index: number; entryId: string }>>([]);
  const hitAt = signal(-1);
  /** The query `hits` answer; while it differs from `query`, a search is on the way ("Searching…", not "No matches"). */
  const foundFor = signal('');

  async function find(text: string) {
    query.value = text;
    const current = view.value;
    if (!current || !text.trim()) {
      batch(() => {
        hits.value = [];
        hitAt.value = -1;
        foundFor.value = text;
      });
      return;
    }
    let found: Array<{ index: number; entryId: string }>;
    try {
      found = await worker.findInSession({ id, leafId: current.leafId, query: text, filter: current.filter });
    } catch (e) {
      // Say it failed rather than "Searching…" for ever.
      found = [];
      error.value = e instanceof Error ? e.message : String(e);
    }
    if (query.value !== text) return;
    const after = found.findIndex((h) => h.index >= topIndex.value);
    batch(() => {
      hits.value = found;
      hitAt.value = found.length ? Math.max(after, 0) : -1;
      foundFor.value = text;
    });
    if (found.length) scrollTo(found[hitAt.value].index);
  }

  function stepHit(delta: number) {
    const list = hits.value;
    if (!list.length) return;
    hitAt.value = (hitAt.value + delta + list.length) % list.length;
    scrollTo(list[hitAt.value].index);
  }

  return { query, hits, hitAt, foundFor, find, stepHit };
}
