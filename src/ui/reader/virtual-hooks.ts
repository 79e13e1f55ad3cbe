/** The virtual list's (VirtualList.tsx) hooks onto the browser: its ResizeObserver, the user's scrolling, the next slice's task, the task after a frame. */
import { useEffect, useLayoutEffect, useRef } from 'preact/hooks';
import { postTask } from '../markdown/scheduler.ts';

/** A task after the current one, without setTimeout's clamping. */
export const nextTask = postTask();

/**
 * The rows' and the scroller's heights, kept by a ResizeObserver made with the list in a layout
 * effect: it observes the scroller in the task that mounts it, so its first report (the scroller's
 * height, in `view`) comes right after the first layout, before the first paint. `measure(i)` is
 * the ref of row i's element; `changed(from)` hears of new heights (`from`: the first row whose
 * height changed, or heights.length when only the scroller's did).
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
  useLayoutEffect(() => {
    const ro = new ResizeObserver((entries) => {
      let from = Number.POSITIVE_INFINITY;
      let any = false;
      for (const entry of entries) {
        const el = entry.target as HTMLElement;
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
    });
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
