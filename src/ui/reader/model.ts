import { batch, computed, signal } from '@preact/signals';
import type { ComponentType } from 'preact';
import { isForeignAgent } from '../../core/write/agent.ts';
import type { BranchImage, ItemFilter, RenderItem, SessionView } from '../../core/view/types.ts';
import { rememberShownBranch } from '../models/shown-branch.ts';
import { createFind } from './model-find.ts';
import { createPages } from './model-pages.ts';
import { createPanels } from './model-panels.ts';
import { createJumps, createViewer } from './model-parts.ts';
import { worker } from '../worker.ts';

/** The reader's tabs. */
export type ReaderTab = 'transcript' | 'context' | 'stats';

/** A request to bring an item on screen. */
export interface ScrollRequest {
  index: number;
  align: 'start' | 'end';
  seq: number;
}

/** The label button and form, from the library around the reader (the share page has none, and does not bundle them). */
export interface LabelUi {
  Button: ComponentType<{ item: RenderItem; model: ReaderModel; editing: boolean }>;
  Form: ComponentType<{ item: RenderItem; model: ReaderModel }>;
}

/**
 * The reader's state for session `id`. `labels`: the label editor, where entries can be labelled
 * (none in a share page, which has no library to write to).
 */
export function createReaderModel(id: string, { labels, composer = false }: { labels?: LabelUi; composer?: boolean } = {}) {
  const view = signal<SessionView | null>(null);
  const error = signal<string | null>(null);
  const loading = signal(true);
  const filter = signal<ItemFilter>('all');
  const tab = signal<ReaderTab>('transcript');
  const showThinking = signal(false);
  const showUsage = signal(false);
  const treeOpen = signal(false);
  const findOpen = signal(false);
  const scroll = signal<ScrollRequest | null>(null);
  /** Bumped when a page of items arrives. */
  const version = signal(0);
  const { context, stats, family, loadContext, loadFamily, loadStats, forget } = createPanels({ id, view });
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
  /** Whether entries offer "Continue from here" (the app's composer, a session it may write). */
  const canContinue = computed(() => composer && !readOnly.value);
  /** The entry the composer's next message continues from (a new branch there), when one was chosen. */
  const continueFrom = signal<{ entryId: string; line: number } | null>(null);
  /** The entry whose label form is open, if any. */
  const labelling = signal<string | null>(null);
  /** The full-screen picture viewer: the branch's pictures and the one shown; null when closed. */
  const viewer = signal<{ images: BranchImage[]; at: number } | null>(null);

  let generation = 0;
  let scrollSeq = 0;
  const pages = createPages({ id, view, version, error, generation: () => generation });

  function scrollTo(index: number, align: 'start' | 'end' = 'start') {
    scroll.value = { index, align, seq: ++scrollSeq };
    if (align === 'start') topIndex.value = index;
  }

  /** Shows a view the worker just opened: its first pages (sent with the outline) replace every page and height guess. */
  function takeView(next: SessionView) {
    pages.reset(next);
    view.value = next;
    forget();
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
   * A branch that no longer extends the one on screen is opened afresh. `latest`: read the file's
   * latest branch (by default when the reader was opened without a chosen one), else the one on screen.
   * `'quiet'`: the rows are added, neither followed nor counted (the caller brings them on screen).
   */
  async function grow(pinned: boolean | 'quiet', latest = followsLatest) {
    const current = view.value;
    if (!current || loading.value) return;
    const gen = generation;
    const leafId = latest ? undefined : (current.leafId ?? undefined);
    const next = await worker.openSession({ id, leafId, filter: current.filter });
    if (gen !== generation || view.value !== current) return;
    if (next.count < current.count) return open(leafId);
    if (next.count === current.count && next.leafId === current.leafId) return;
    pages.grow(current, next);
    const added = next.count - current.count;
    batch(() => {
      view.value = next;
      forget();
      if (pinned === true) fresh.value = null;
      else if (!pinned && added > 0) fresh.value = { count: (fresh.value?.count ?? 0) + added, from: fresh.value?.from ?? current.count };
      version.value++;
    });
    if (pinned === true) scrollTo(Math.max(0, next.count - 1), 'end');
    void loadFamily();
  }

  /**
   * A turn written after the branch on screen (the composer's): its rows are added at the end, the
   * rows already loaded kept (not the whole list read and built again, as refresh does), and the
   * first of them (the message sent) brought to the top of the screen.
   */
  async function appended(): Promise<void> {
    const current = view.value;
    if (!current) return;
    // Rows the live follower adds meanwhile (counted for the pill) are this turn's too.
    const from = fresh.value?.from ?? current.count;
    await grow('quiet', current.leafId === current.defaultLeafId);
    fresh.value = null;
    if ((view.value?.count ?? 0) > from) scrollTo(from, 'start');
  }

  /** Brings the first of the rows that arrived live on screen and clears the pill. */
  function showFresh() {
    const f = fresh.value;
    fresh.value = null;
    if (f) scrollTo(Math.min(f.from, Math.max(0, (view.value?.count ?? 1) - 1)), 'start');
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

  const { query, hits, hitAt, foundFor, find, stepHit } = createFind({ id, view, topIndex, error, scrollTo });
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
    canContinue,
    continueFrom,
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
      return pages.hints;
    },
    open,
    show,
    grow,
    appended,
    showFresh,
    reveal,
    item: pages.item,
    peek: pages.peek,
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
