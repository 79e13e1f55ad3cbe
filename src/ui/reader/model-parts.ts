// Two parts of the reader's model (model.ts) with their own state: the picture viewer (the
// branch's pictures, fetched once per branch) and the jumps between marks (one after another).
import type { Signal } from '@preact/signals';
import type { BranchImage, ImageRef, Marks, SessionView } from '../../core/view/types.ts';
import { worker } from '../worker.ts';

/** What both parts read of the model. */
interface ModelParts {
  id: string;
  view: Signal<SessionView | null>;
  /** First item on screen. */
  topIndex: Signal<number>;
  scrollTo: (index: number, align?: 'start' | 'end') => void;
}

/** The full-screen picture viewer's open and close. */
export function createViewer({ id, view, topIndex, viewer, scrollTo }: ModelParts & { viewer: Signal<{ images: BranchImage[]; at: number } | null> }) {
  let images: { key: string; list: Promise<BranchImage[]> } | null = null;
  let openedAt = -1;

  /** Opens the viewer on a picture; swiping then steps through every picture of the branch. */
  async function openViewer(image: ImageRef) {
    const current = view.value;
    if (!current) return;
    const key = `${current.leafId}:${current.filter}:${current.entryCount}`;
    if (images?.key !== key) images = { key, list: worker.branchImages({ id, leafId: current.leafId, filter: current.filter }) };
    let list: BranchImage[];
    try {
      list = await images.list;
    } catch {
      images = null;
      list = [];
    }
    let at = list.findIndex((b) => b.image.entryId === image.entryId && b.image.part === image.part);
    if (at < 0) {
      // Not in the list (e.g. the worker could not build it): show this one alone.
      list = [{ index: topIndex.value, image }];
      at = 0;
    }
    openedAt = at;
    viewer.value = { images: list, at };
  }

  /** Closes the viewer (and its history entry, unless the browser's back already took it) and shows the last picture's item. */
  function closeViewer(how: { fromHistory?: boolean } = {}) {
    const state = viewer.value;
    if (!state) return;
    viewer.value = null;
    if (!how.fromHistory && (history.state as { rdViewer?: boolean } | null)?.rdViewer) history.back();
    // After swiping to other pictures, the transcript shows where the last one is.
    const shown = state.images[state.at];
    if (shown && shown.index !== state.images[openedAt]?.index) scrollTo(shown.index);
  }

  return { openViewer, closeViewer };
}

/** Jumps to the next or previous mark of a kind (or item) from the one on screen. */
export function createJumps({ id, view, topIndex, scrollTo }: ModelParts) {
  /** The marks of the open branch, read from the worker the first time they are needed. */
  async function marksOf(current: SessionView): Promise<Marks> {
    if (current.marks) return current.marks;
    const marks = await worker.sessionMarks({ id, leafId: current.leafId, filter: current.filter });
    if (view.value === current) view.value = { ...current, marks };
    return marks;
  }

  let jumps: Promise<unknown> = Promise.resolve();

  /** Jumps to the next (+1) or previous (-1) mark of a kind from the item on screen; jumps run one after another. */
  function jump(kind: keyof Marks | 'item', direction: 1 | -1): Promise<number | null> {
    const next = jumps.then(() => jumpNow(kind, direction));
    jumps = next.catch(() => null);
    return next;
  }

  async function jumpNow(kind: keyof Marks | 'item', direction: 1 | -1): Promise<number | null> {
    const current = view.value;
    if (!current) return null;
    const from = topIndex.value;
    let target: number | undefined;
    if (kind === 'item') target = Math.min(current.count - 1, Math.max(0, from + direction));
    else {
      const marks = (await marksOf(current))[kind];
      target = direction > 0 ? marks.find((m) => m > from) : [...marks].reverse().find((m) => m < from);
    }
    if (target === undefined) return null;
    scrollTo(target);
    // The list reports its new top after it renders; the next jump must already start from here.
    topIndex.value = target;
    return target;
  }

  return jump;
}
