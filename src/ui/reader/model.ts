import { batch, computed, signal } from '@preact/signals';
import type { ComponentType } from 'preact';
import { isForeignAgent } from '../../core/write/agent.ts';
import { VIEW_PAGE, type BranchImage, type ContextView, type ItemFilter, type RenderItem, type SessionView, type StatsView } from '../../core/view/types.ts';
import { rememberShownBranch } from '../models/shown-branch.ts';
import { createJumps, createViewer } from './model-parts.ts';
import type { SessionFamily } from '../../worker/subagents/api.ts';
import { worker } from '../worker.ts';

/** Items are fetched from the worker in pages of this many. */
export const PAGE = VIEW_PAGE;

/** The reader's tabs. */
export type ReaderTab = 'transcript' | 'context' | 'stats';

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

/** A request to bring an item on screen. */
export interface ScrollRequest {
  index: number;
  align: 'start' | 'end';
  seq: number;
}

/** The state of one open session on the page: outline, loaded item pages, view toggles, find. */
/** The label button and form, from the library around the reader (the share page has none, and does not bundle them). */
export interface LabelUi {
  Button: ComponentType<{ item: RenderItem; model: ReaderModel; editing: boolean }>;
  Form: ComponentType<{ item: RenderItem; model: ReaderModel }>;
}

/**
 * The reader's state for session `id`. `labels`: the label editor, where entries can be labelled
 * (none in a share page, which has no library to write to).
 */
export function createReaderModel(id: string, { labels }: { labels?: LabelUi } = {}) {
  const view = signal<SessionView | null>(null);
  const error = signal<string | null>(null);
  const loading = signal(true);
  const filter = signal<ItemFilter>('all');
  const tab = signal<ReaderTab>('transcript');
  const showThinking = signal(false);
  const showUsage = signal(false);
  const treeOpen = signal(false);
  const findOpen = signal(false);
  const query = signal('');
  const hits = signal<Array<{ index: number; entryId: string }>>([]);
  const hitAt = signal(-1);
  /** The query `hits` answer; while it differs from `query`, a search is on the way ("Searching…", not "No matches"). */
  const foundFor = signal('');
  const scroll = signal<ScrollRequest | null>(null);
  /** Bumped when a page of items arrives. */
  const version = signal(0);
  const context = signal<ContextView | null>(null);
  const stats = signal<StatsView | null>(null);
  /** The session's parent and subagent transcripts (null until read, or when the worker has no such call). */
  const family = signal<SessionFamily | null>(null);
  /** A Claude Code or Codex session: shown from its pi conversion and never written to (no labels). */
  const readOnly = computed(() => isForeignAgent(family.value?.self?.agent));
  /** Whether the label buttons show: a session of this library written by pi or omp. */
  const canLabel = computed(() => Boolean(labels) && !readOnly.value);
  /** The list's identity: a new branch or filter makes a new list; rows added live keep it. */
  const listKey = signal('');
  /** Rows that arrived live while the reader was scrolled up (the "N new" pill), and where they start. */
  const fresh = signal<{ count: number; from: number } | null>(null);
  /** Whether the reader follows the latest leaf as the session grows (opened without a chosen branch). */
  let followsLatest = true;
  /** First item on screen (kept for keyboard jumps). */
  const topIndex = signal(0);
  /** The keyboard help ("?"). */
  const helpOpen = signal(false);
  /** The entry whose label form is open, if any. */
  const labelling = signal<string | null>(null);
  /** The full-screen picture viewer: the branch's pictures and the one shown; null when closed. */
  const viewer = signal<{ images: BranchImage[]; at: number } | null>(null);

  const pages = new Map<number, RenderItem[]>();
  /** Height guesses of the items loaded so far (-1 elsewhere), one typed array so the list sums 30,000 rows cheaply. */
  let hints = new Float64Array(0);

  function keepPage(page: number, items: RenderItem[]) {
    pages.set(page, items);
    for (let k = 0; k < items.length && page * PAGE + k < hints.length; k++) hints[page * PAGE + k] = estimateHeight(items[k]);
  }
  const pending = new Set<number>();
  let generation = 0;
  let scrollSeq = 0;

  function scrollTo(index: number, align: 'start' | 'end' = 'start') {
    scroll.value = { index, align, seq: ++scrollSeq };
    if (align === 'start') topIndex.value = index;
  }

  /** Shows a view the worker just opened: its first pages (sent with the outline) replace every page and height guess. */
  function takeView(next: SessionView) {
    pages.clear();
    pending.clear();
    hints = new Float64Array(next.count).fill(-1);
    for (let start = next.itemsStart; start < next.itemsStart + next.items.length; start += PAGE) {
      keepPage(start / PAGE, next.items.slice(start - next.itemsStart, start - next.itemsStart + PAGE));
    }
    view.value = next;
    context.value = null;
    stats.value = null;
    version.value++;
  }

  /**
   * Shows a view made on the page rather than opened by the worker (the rehearsal's, rehearsal.tsx)
   * at its end, as an open would. It stays `loading`: nothing follows it or asks the worker for it.
   */
  function show(next: SessionView) {
    ++generation;
    batch(() => {
      takeView(next);
      listKey.value = `shown:${next.id}`;
    });
    scrollTo(Math.max(0, next.count - 1), 'end');
  }

  /** Opens the session on a branch; scrolls to the entry or to the end. */
  async function open(leafId?: string, entryId?: string) {
    const gen = ++generation;
    followsLatest = leafId === undefined;
    loading.value = true;
    try {
      const next = await worker.openSession({ id, leafId, entryId, filter: filter.value });
      if (gen !== generation) return;
      batch(() => {
        takeView(next);
        error.value = null;
        loading.value = false;
        fresh.value = null;
        listKey.value = `${next.leafId}:${next.filter}:${gen}`;
      });
      // The branch on screen is the one the library's "Export active branch" takes.
      rememberShownBranch(id, next.leafId === next.defaultLeafId ? null : next.leafId);
      if (next.entryIndex !== null) scrollTo(next.entryIndex, 'start');
      else scrollTo(Math.max(0, next.count - 1), 'end');
      if (query.value) {
        // The old hits were positions on the old branch or filter.
        foundFor.value = '';
        void find(query.value);
      }
      void loadFamily();
    } catch (e) {
      if (gen !== generation) return;
      batch(() => {
        error.value = e instanceof Error ? e.message : String(e);
        loading.value = false;
      });
    }
  }

  /**
   * The session grew on disk (an agent writing to a linked folder): the new rows are added at the
   * end; `pinned` (the reader was at the bottom) follows them, else they are counted for the pill.
   * A branch that no longer extends the one on screen is opened afresh.
   */
  async function grow(pinned: boolean) {
    const current = view.value;
    if (!current || loading.value) return;
    const gen = generation;
    const next = await worker.openSession({ id, leafId: followsLatest ? undefined : (current.leafId ?? undefined), filter: current.filter });
    if (gen !== generation || view.value !== current) return;
    if (next.count < current.count) return open(followsLatest ? undefined : (current.leafId ?? undefined));
    if (next.count === current.count && next.leafId === current.leafId) return;
    // The last pages may hold rows that changed (a tool call whose result just came): read them again.
    const lastPage = Math.floor(Math.max(0, current.count - 1) / PAGE);
    pages.delete(lastPage);
    pages.delete(lastPage - 1);
    const grown = new Float64Array(next.count).fill(-1);
    grown.set(hints.subarray(0, Math.min(hints.length, Math.max(0, (lastPage - 1) * PAGE))));
    hints = grown;
    for (let start = next.itemsStart; start < next.itemsStart + next.items.length; start += PAGE) {
      keepPage(start / PAGE, next.items.slice(start - next.itemsStart, start - next.itemsStart + PAGE));
    }
    const added = next.count - current.count;
    batch(() => {
      view.value = next;
      stats.value = null;
      context.value = null;
      if (pinned) fresh.value = null;
      else if (added > 0) fresh.value = { count: (fresh.value?.count ?? 0) + added, from: fresh.value?.from ?? current.count };
      version.value++;
    });
    if (pinned) scrollTo(Math.max(0, next.count - 1), 'end');
    void loadFamily();
  }

  /** Brings the first of the rows that arrived live on screen and clears the pill. */
  function showFresh() {
    const f = fresh.value;
    fresh.value = null;
    if (f) scrollTo(Math.min(f.from, Math.max(0, (view.value?.count ?? 1) - 1)), 'start');
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

  async function loadPage(page: number) {
    const current = view.value;
    if (!current || pending.has(page)) return;
    pending.add(page);
    const gen = generation;
    try {
      const items = await worker.readItems({ id, leafId: current.leafId, start: page * PAGE, end: (page + 1) * PAGE, filter: current.filter });
      if (gen !== generation) return;
      keepPage(page, items);
      version.value++;
    } catch (e) {
      if (gen === generation) error.value = e instanceof Error ? e.message : String(e);
    } finally {
      pending.delete(page);
    }
  }

  /** Brings an entry of the open branch on screen (a deep link followed inside the reader). */
  async function reveal(entryId: string) {
    const current = view.value;
    if (!current) return;
    const next = await worker.openSession({ id, leafId: current.leafId, entryId, filter: current.filter });
    if (next.leafId !== current.leafId) return open(next.leafId ?? undefined, entryId);
    if (next.entryIndex !== null) scrollTo(next.entryIndex, 'start');
  }

  async function setFilter(next: ItemFilter) {
    if (next === filter.value) return;
    filter.value = next;
    await open(view.value?.leafId ?? undefined);
  }

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

  /** Re-reads the open branch after a write (a new label), keeping the scroll position; a branch that ended at the file's leaf follows it. */
  async function refresh() {
    const current = view.value;
    if (!current) return;
    const gen = ++generation;
    const leafId = current.leafId === current.defaultLeafId ? undefined : (current.leafId ?? undefined);
    const next = await worker.openSession({ id, leafId, filter: current.filter });
    if (gen !== generation) return;
    batch(() => takeView(next));
  }

  /** Adds, changes or clears (empty text) the label of an entry: a `label` entry appended to the file by the worker. */
  async function setLabel(entryId: string, text: string) {
    await worker.labelEntry({ id, entryId, label: text });
    labelling.value = null;
    await refresh();
  }

  async function loadContext() {
    const current = view.value;
    if (!current || context.value?.leafId === current.leafId) return;
    context.value = await worker.sessionContext({ id, leafId: current.leafId });
  }

  async function loadFamily() {
    try {
      family.value = await worker.sessionFamily({ id });
    } catch {
      // An older worker without subagents: nothing to link.
    }
  }

  async function loadStats() {
    const current = view.value;
    if (!current || stats.value) return;
    stats.value = await worker.sessionStats({ id, leafId: current.leafId });
  }

  const { openViewer, closeViewer } = createViewer({ id, view, topIndex, viewer, scrollTo });
  const jump = createJumps({ id, view, topIndex, scrollTo });

  return {
    id,
    view,
    error,
    loading,
    filter,
    tab,
    showThinking,
    showUsage,
    treeOpen,
    findOpen,
    query,
    hits,
    hitAt,
    foundFor,
    scroll,
    version,
    context,
    stats,
    family,
    readOnly,
    canLabel,
    labelUi: labels ?? null,
    listKey,
    fresh,
    topIndex,
    viewer,
    helpOpen,
    labelling,
    setLabel,
    refresh,
    openViewer,
    closeViewer,
    /** Height guesses per item for the list (-1: none yet); replaced when the branch or filter changes. */
    get heightHints() {
      return hints;
    },
    open,
    show,
    grow,
    showFresh,
    reveal,
    item,
    peek,
    setFilter,
    find,
    stepHit,
    loadContext,
    loadStats,
    loadFamily,
    jump,
    scrollTo,
    entryJson: (entryId: string) => worker.entryJson({ id, entryId }),
    imageBlob: (entryId: string, part: number) => worker.imageBlob({ id, entryId, part }),
  };
}

/** One open session's model. */
export type ReaderModel = ReturnType<typeof createReaderModel>;
