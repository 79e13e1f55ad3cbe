/** The virtual list's (VirtualList.tsx) hooks onto the browser: its ResizeObserver, the user's scrolling, the next slice's task, the task after a frame. */
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { Range } from './virtual-layout.ts';
import { postTask } from '../../markdown/scheduler.ts';

/** A task after the current one, without setTimeout's clamping. */
export const nextTask = postTask();

/**
 * The rows' and the scroller's heights, kept by a ResizeObserver made with the list in a layout
 * effect: it observes the scroller in the task that mounts it, so its first report (the scroller's
 * height, in `view`) comes right after the first layout, before the first paint. `measure(i)` is
 * the ref of row i's element; `changed(from)` hears of new heights (`from`: the first row whose
 * height changed, or heights.length when only the scroller's did). `measureNow()` reads the rows'
 * heights at once (a task that has just laid them out), so the observer later finds them known.
 */
export function useSizes(
  scroller: { current: HTMLElement | null },
  heights: { current: Float64Array },
  view: { current: number },
  changed: (from: number) => void,
) {
  const observer = useRef<ResizeObserver | null>(null);
  const elements = useRef(new Map<Element, number>());
  const latest = useRef(changed);
  latest.current = changed;
  /** Takes the heights of `targets` (rows, or the scroller); tells `changed` of any new one. */
  const take = (targets: Iterable<Element>) => {
    let from = Number.POSITIVE_INFINITY;
    let any = false;
    for (const target of targets) {
      const el = target as HTMLElement;
      if (el === scroller.current) {
        if (el.clientHeight !== view.current) {
          view.current = el.clientHeight;
          any = true;
        }
        continue;
      }
      const index = elements.current.get(el);
      if (index === undefined) continue;
      const height = el.offsetHeight;
      if (heights.current[index] !== height) {
        heights.current[index] = height;
        from = Math.min(from, index);
        any = true;
      }
    }
    if (any) latest.current(Math.min(from, heights.current.length));
  };
  const takeNow = useRef(take);
  takeNow.current = take;
  useLayoutEffect(() => {
    const ro = new ResizeObserver((entries) => takeNow.current(entries.map((e) => e.target)));
    observer.current = ro;
    if (scroller.current) ro.observe(scroller.current);
    for (const el of elements.current.keys()) ro.observe(el);
    return () => ro.disconnect();
  }, [scroller, heights, view]);
  return {
    measure: (index: number) => (el: HTMLElement | null) => {
      if (!el || elements.current.get(el) === index) return;
      elements.current.set(el, index);
      observer.current?.observe(el);
    },
    measureNow: () => take([...elements.current.keys()]),
    /** Stops observing the rows no longer in the document. */
    forgetDetached() {
      for (const [el] of elements.current) {
        if (!el.isConnected) {
          observer.current?.unobserve(el);
          elements.current.delete(el);
        }
      }
    },
  };
}

/** The rendered range: as state, and in a ref that callbacks read between renders; setting an equal range renders nothing. */
export function useRange() {
  const [range, setState] = useState<Range>({ start: 0, end: 0, fast: false });
  const ref = useRef<Range>(range);
  const set = (next: Range) => {
    const r = ref.current;
    if (r.start === next.start && r.end === next.end && r.fast === next.fast) return;
    ref.current = next;
    setState(next);
  };
  return [range, ref, set] as const;
}

/**
 * Runs `fn` for the list's next slice of rows: in the next task when `first` (a new list's rows
 * after its pinned one, before the frame that shows the page), else after the next frame (which
 * lays out and paints the slice before), or soon where no frame comes (a hidden page).
 */
export function afterSlice(first: boolean, fn: () => void) {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    clearTimeout(fallback);
    fn();
  };
  const fallback = setTimeout(run, 100);
  if (first) nextTask(run);
  else requestAnimationFrame(() => nextTask(run));
}

/**
 * Runs `fn` in a task after the next frame (soon at the latest, where no frame comes: a hidden
 * page); returns a cancel function. While the user scrolls the page is never idle: this is when
 * the rows ahead of the viewport can be added between frames.
 */
export function afterNextFrame(fn: () => void): () => void {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    clearTimeout(fallback);
    cancelAnimationFrame(frame);
    fn();
  };
  const fallback = setTimeout(run, 100);
  const frame = requestAnimationFrame(() => nextTask(run));
  return () => {
    done = true;
    clearTimeout(fallback);
    cancelAnimationFrame(frame);
  };
}

/** Ends a pin at any sign of the user's own scrolling; a window resize settles the list again. */
export function usePinRelease(scroller: { current: HTMLElement | null }, pin: { current: unknown }, settle: () => void) {
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const release = () => {
      pin.current = null;
    };
    const onKey = (e: KeyboardEvent) => {
      if (/^(Arrow|Page|Home|End| )/.test(e.key)) release();
    };
    const onPointer = (e: PointerEvent) => {
      if (e.target === el) release();
    };
    el.addEventListener('wheel', release, { passive: true });
    el.addEventListener('touchstart', release, { passive: true });
    el.addEventListener('keydown', onKey);
    el.addEventListener('pointerdown', onPointer);
    // The scroller's own height comes from its observer; the rows' heights may change with the width.
    window.addEventListener('resize', settle);
    return () => {
      el.removeEventListener('wheel', release);
      el.removeEventListener('touchstart', release);
      el.removeEventListener('keydown', onKey);
      el.removeEventListener('pointerdown', onPointer);
      window.removeEventListener('resize', settle);
    };
  }, [scroller, pin, settle]);
}

/**
 * What the list keeps of a reader's scroll: where the last scroll event found the scroller (-1:
 * none yet), whether it went up (rows are then added above first) and when; the task that draws
 * the rows ahead (its cancel function); `layOutNow`: the render in such a task lays its rows out
 * there, not in the next frame.
 */
export interface Reading {
  top: number;
  upward: boolean;
  at: number;
  later: (() => void) | null;
  layOutNow: boolean;
}

/** A reading of no scroll yet. */
export function newReading(): Reading {
  return { top: -1, upward: false, at: Number.NEGATIVE_INFINITY, later: null, layOutNow: false };
}

/**
 * Takes a scroll event's position: the step since the last one (0 for the first), whoever made it
 * (the user's own scroll may have been taken as the list's by an observer's settle before its event).
 */
export function takeStep(r: Reading, top: number): number {
  const step = r.top >= 0 ? top - r.top : 0;
  r.top = top;
  if (step !== 0) r.upward = step < 0;
  return step;
}

/**
 * Runs `draw` (which draws the rows ahead of the scroll) in a task after this frame, one such task
 * at a time: it reads where the scroll is when it runs, since Chromium may draw another frame first.
 */
export function drawAheadSoon(r: Reading, draw: () => void) {
  r.at = performance.now();
  r.later ??= afterNextFrame(() => {
    r.later = null;
    draw();
  });
}
