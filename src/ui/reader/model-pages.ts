// The reader's items as the list asks for them: pages fetched from the worker on demand, and a
// first guess of every loaded row's height (model.ts hands both to the virtual list).
import type { Signal } from '@preact/signals';
import { VIEW_PAGE, type RenderItem, type SessionView } from '../../core/view/types.ts';
import { worker } from '../worker.ts';

/** Items are fetched from the worker in pages of this many. */
export const PAGE = VIEW_PAGE;

/** A first guess of a row's height from what it holds (folded results take no room); -1: no idea yet. */
export function estimateHeight(item: RenderItem | undefined): number {
  if (!item) return -1;
  switch (item.kind) {
    case 'folded':
      return 0;
    case 'divider':
    case 'labelChange':
      return 32;
    case 'state':
    case 'unknown':
      return 50;
    case 'user':
      return 110;
    case 'assistant':
      return 150 + item.blocks.length * 60;
    default:
      return 120;
  }
}

/** What the pages read of the model: the view on screen, the open's generation, where to report. */
interface PagesOf {
  id: string;
  view: Signal<SessionView | null>;
  /** Bumped when a page of items arrives. */
  version: Signal<number>;
  error: Signal<string | null>;
  /** The model's open count: a page that arrives for an earlier open is dropped. */
  generation: () => number;
}

/** The loaded pages of the branch on screen and their rows' height guesses. */
export function createPages({ id, view, version, error, generation }: PagesOf) {
  const pages = new Map<number, RenderItem[]>();
  const pending = new Set<number>();
  /** Height guesses of the items loaded so far (-1 elsewhere), one typed array so the list sums 30,000 rows cheaply. */
  let hints = new Float64Array(0);

  function keepPage(page: number, items: RenderItem[]) {
    pages.set(page, items);
    for (let k = 0; k < items.length && page * PAGE + k < hints.length; k++) hints[page * PAGE + k] = estimateHeight(items[k]);
  }

  /** Keeps the pages a view was sent with (with its outline). */
  function keepSent(next: SessionView) {
    for (let start = next.itemsStart; start < next.itemsStart + next.items.length; start += PAGE) {
      keepPage(start / PAGE, next.items.slice(start - next.itemsStart, start - next.itemsStart + PAGE));
    }
  }

  /** A view the worker just opened: its first pages replace every page and height guess. */
  function reset(next: SessionView) {
    pages.clear();
    pending.clear();
    hints = new Float64Array(next.count).fill(-1);
    keepSent(next);
  }

  /** The branch grew from `current` to `next`: the last pages may hold rows that changed (a tool call whose result just came), so they are read again. */
  function grow(current: SessionView, next: SessionView) {
    const lastPage = Math.floor(Math.max(0, current.count - 1) / PAGE);
    pages.delete(lastPage);
    pages.delete(lastPage - 1);
    const grown = new Float64Array(next.count).fill(-1);
    grown.set(hints.subarray(0, Math.min(hints.length, Math.max(0, (lastPage - 1) * PAGE))));
    hints = grown;
    keepSent(next);
  }

  async function loadPage(page: number) {
    const current = view.value;
    if (!current || pending.has(page)) return;
    pending.add(page);
    const gen = generation();
    try {
      const items = await worker.readItems({ id, leafId: current.leafId, start: page * PAGE, end: (page + 1) * PAGE, filter: current.filter });
      if (gen !== generation()) return;
      keepPage(page, items);
      version.value++;
    } catch (e) {
      if (gen === generation()) error.value = e instanceof Error ? e.message : String(e);
    } finally {
      pending.delete(page);
    }
  }

  /** The item at a position, or undefined while its page is on the way (the page is then requested). */
  function item(index: number): RenderItem | undefined {
    const page = Math.floor(index / PAGE);
    const items = pages.get(page);
    if (items) return items[index - page * PAGE];
    void loadPage(page);
    return undefined;
  }

  /** The item at a position if it is already here (never asks the worker). */
  function peek(index: number): RenderItem | undefined {
    const page = Math.floor(index / PAGE);
    return pages.get(page)?.[index - page * PAGE];
  }

  return {
    reset,
    grow,
    item,
    peek,
    get hints() {
      return hints;
    },
  };
}
