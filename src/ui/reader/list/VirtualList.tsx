import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { ScrollRequest } from '../model.ts';
import { drawAheadSoon, newReading, nextTask, takeStep, usePinRelease, useRange, useSizes } from './virtual-hooks.ts';
import { type Anchor, aheadRange, anchorAt, indexAt, placeOf, planRange, sumOffsets, whenIdle } from './virtual-layout.ts';
import { drawRows, type Quiet } from './virtual-rows.tsx';
import { useSlices } from './virtual-slices.ts';

export { indexAt } from './virtual-layout.ts';

/** Extra pixels rendered above and below the viewport (added after the visible rows, when the page is idle). */
const OVERSCAN = 500;

/** How long the list must stay still after a jump before the rows themselves are rendered. */
const SETTLE_MS = 40;

/** The last height a list's scroller had: the first guess of the next list's, before its own is known. */
let lastViewHeight = 0;

interface Props {
  count: number;
  /** Changes whenever rendered content may have changed (new pages, toggles). */
  version: number;
  /** Resets measurements when it changes (another branch or filter). */
  resetKey: string;
  estimate?: number;
  /** Better guesses of unmeasured rows' heights when the caller knows what they hold (-1: no guess). Read again when `version` changes. */
  hints?: Float64Array;
  scroll: ScrollRequest | null;
  render: (index: number) => ComponentChildren;
  /** What drawing row i costs, guessed (1: a row of a few lines; default 1): a task adds rows up to a time budget by it. */
  cost?: (index: number) => number;
  onTop?: (index: number) => void;
  label: string;
}

/**
 * A virtualized vertical list of items of unknown, changing heights: only what is on screen (plus
 * overscan) is in the DOM, heights are measured with a ResizeObserver, and the item at the top of
 * the viewport stays put when items above it change size. A scroll request pins an item (to the
 * top, or its bottom to the bottom) until the user scrolls.
 *
 * No layout is read before the browser's own: the scroller's position is read and set only once
 * its ResizeObserver has reported its height (right after the frame's layout, where reading costs
 * nothing), so the task that mounts a list (the worker's reply, with the page around it) forces
 * no layout of the page; and the renders inside an observer callback move rows but add none (rows
 * added there are laid out again in the same frame, and the browser reports the rows it could not
 * observe in time as a "ResizeObserver loop" error).
 */
export function VirtualList({ count, version, resetKey, estimate = 140, hints, scroll, render, cost, onTop, label }: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  const inner = useRef<HTMLDivElement>(null);
  /** Measured heights (-1: not measured yet). */
  const heights = useRef(new Float64Array(0));
  const offsets = useRef(new Float64Array(1));
  /** Offsets from this index on must be recomputed (count: none). */
  const dirtyFrom = useRef(0);
  /** Set when every offset must be recomputed (estimates may have changed). */
  const dirty = useRef(true);
  const extendLater = useRef<(() => void) | null>(null);
  /** A reader's scroll: its last position and direction, the task that draws the rows ahead of it. */
  const reading = useRef(newReading());
  const pin = useRef<{ index: number; align: 'start' | 'end' } | null>(null);
  /** The scrollTop this component last set; any other position means someone else scrolled. */
  const placed = useRef(-1);
  /** The scrollTop the anchor was last taken from (-1: none yet, or taken from a position still to be set). */
  const seen = useRef(-1);
  const anchor = useRef<Anchor>({ index: 0, delta: 0 });
  /**
   * Set inside a ResizeObserver callback or a worker's reply ('quiet'), or once a task has added
   * rows ('drew'), until the next task: renders then add no rows (in a reply they would be rendered,
   * styled and laid out in its task, which lands mid-scroll; the next slice or draw-ahead adds them).
   */
  const observing = useRef<Quiet>(false);
  /** `newTask`: the first render of a task of its own (an observer's report, a scroll event), which a 'drew' set before does not hold back. */
  const quietUntilNextTask = (why: 'quiet' | 'drew' = 'quiet', newTask = false) => {
    if (!observing.current) nextTask(() => (observing.current = false));
    observing.current = observing.current === 'drew' && !newTask ? 'drew' : why;
  };
  /** Set while the layout effect takes the heights of the rows just drawn (not an observer's report). */
  const measuring = useRef(false);
  const [range, rangeRef, setRange] = useRange();
  const realLater = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [, setTick] = useState(0);
  /** The real rows rendered (a part of `range` while its rows are put in slice by slice). */
  const drawn = useRef({ start: 0, end: 0, key: '' });
  /** The scroller's height, kept by a ResizeObserver (-1 until it reports): reading clientHeight after a render forces a layout. */
  const viewHeight = useRef(-1);
  /** What the offsets were last computed for: another list forgets its measurements, a new version its guesses. */
  const shown = useRef<{ resetKey: string; count: number; version: number } | null>(null);

  // A new branch or filter: forget measurements. Rows added at the end of the same list keep them,
  // and the rows on screen stay where they are. Decided here, before the offsets of this render.
  const before = shown.current;
  if (!before || before.resetKey !== resetKey || before.count !== count || before.version !== version) {
    const grew = before !== null && before.resetKey === resetKey && count > before.count;
    if (before && !grew && (before.resetKey !== resetKey || before.count !== count)) {
      heights.current = new Float64Array(count).fill(-1);
      anchor.current = { index: 0, delta: 0 };
      seen.current = -1;
    }
    // The same rows, new items (a page the worker sent): drawn by the next slice, not in its reply.
    if (before && before.resetKey === resetKey && before.count === count) quietUntilNextTask();
    dirty.current = true;
    shown.current = { resetKey, count, version };
  }

  const layout = useCallback(() => {
    if (heights.current.length !== count) {
      // More rows at the end (a session growing live) keep the measured ones; anything else starts over.
      const next = new Float64Array(count).fill(-1);
      if (count > heights.current.length) next.set(heights.current);
      heights.current = next;
    }
    // New pages (better guesses) or another list: every offset may have changed.
    const from = dirty.current || offsets.current.length !== count + 1 ? 0 : dirtyFrom.current;
    if (from >= count) return offsets.current;
    const o = offsets.current.length === count + 1 ? offsets.current : new Float64Array(count + 1);
    // Only from the first changed item on: a measured row changes the offsets below it, not above.
    sumOffsets(o, heights.current, hints && hints.length === count ? hints : null, estimate, from, count);
    offsets.current = o;
    dirty.current = false;
    dirtyFrom.current = count;
    return o;
  }, [count, estimate, hints]);

  /** The scroller's height: the ResizeObserver's figure, or a guess until it has one. */
  const viewOf = () => (viewHeight.current >= 0 ? viewHeight.current : lastViewHeight);

  /**
   * Recomputes the rendered range and the anchor from the scroll position (`at`: where it is about
   * to be, before the scroller is laid out; `step`: a scroll event's, see planRange; `now`: where it
   * is, already read). The rows on screen are rendered at once; those ahead of a reader's scroll
   * after the frame, the overscan at idle. A jump past everything rendered (a fling, a drag of the
   * scrollbar) draws skeletons of the rows' heights until the list stays still for SETTLE_MS.
   */
  const update = useCallback(
    (scrolling = false, at?: number, step = 0, now?: number) => {
      const el = scroller.current;
      if (!el) return;
      const o = layout();
      const top = at ?? now ?? el.scrollTop;
      // A position still to be set (`at`) is not one the scroller has shown.
      seen.current = at === undefined ? top : -1;
      const plan = planRange(o, count, rangeRef.current, { top, view: viewOf(), overscan: OVERSCAN, scrolling, step });
      anchor.current = anchorAt(o, count, top, viewOf(), plan.first);
      onTop?.(plan.first);
      extendLater.current?.();
      clearTimeout(realLater.current);
      setRange(plan.range);
      if (plan.range.fast) {
        realLater.current = setTimeout(() => update(), SETTLE_MS);
        // A reader's step over skeletons (at a reading pace the list never stays still for SETTLE_MS): the rows, in a task after the frame.
        if (step !== 0 && Math.abs(step) < viewOf()) drawAheadSoon(reading.current, () => update());
        return;
      }
      // A reader's scroll: the rows it is heading for are drawn, and laid out, in a task after this
      // frame, so the frames that bring them on screen find them built.
      const r = reading.current;
      if (plan.reading)
        drawAheadSoon(r, () => {
          const next = aheadRange(layout(), count, rangeRef.current, { top: r.top, view: viewOf(), overscan: OVERSCAN, upward: r.upward });
          if (!next) return;
          // A task of its own, not an observer's callback: it may add rows.
          observing.current = false;
          r.layOutNow = true;
          setRange(next);
        });
      extendLater.current = whenIdle(() => {
        extendLater.current = null;
        const now = rangeRef.current;
        setRange({ start: Math.min(now.start, plan.start), end: Math.max(now.end, plan.end), fast: false });
      });
    },
    [count, layout, onTop],
  );

  /**
   * Puts the pinned item, or else the anchor item, back where it belongs; then recomputes the range.
   * `laidOut` (true): just laid out (the observer's report, the heights just taken), so the position
   * is read before the new height goes in; read after it, it laid the list out again in that task.
   */
  const settle = useCallback(
    (laidOut?: unknown) => {
      const el = scroller.current;
      if (!el || count === 0) return;
      const o = layout();
      const early = laidOut === true && viewHeight.current >= 0 ? el.scrollTop : -1;
      // The new total height must be in place before scrollTop is set, or the browser clamps it to the old one.
      const setHeight = () => inner.current && inner.current.style.height !== `${o[count]}px` && (inner.current.style.height = `${o[count]}px`);
      if (early < 0) setHeight();
      const view = viewOf();
      // Scrolled by someone else since the anchor was taken (a script's or the user's scroll whose
      // event is still to come, when an observer report lands first): that position stands. Read
      // only once laid out (the observer has reported): before, the read would force a layout.
      const now = !pin.current && viewHeight.current >= 0 && seen.current >= 0 ? (early >= 0 ? early : el.scrollTop) : -1;
      if (now >= 0 && Math.abs(now - seen.current) > 1) {
        const first = indexAt(o, count, now);
        anchor.current = anchorAt(o, count, now, view, first);
      }
      const top = placeOf(o, count, view, pin.current, anchor.current);
      // Not laid out yet: its observer settles it again right after the frame's layout.
      if (viewHeight.current < 0) return update(false, top);
      if (early >= 0) setHeight();
      // One read of the position, at most one write (a position past a shorter end moves, so is written).
      const current = early >= 0 ? early : el.scrollTop;
      if (Math.abs(current - top) >= 1) el.scrollTop = top;
      placed.current = Math.abs(current - top) >= 1 ? el.scrollTop : current;
      update(false, undefined, 0, placed.current);
    },
    [count, layout, update],
  );
  const settleNow = useRef(settle);
  settleNow.current = settle;

  useEffect(
    () => () => {
      extendLater.current?.();
      reading.current.later?.();
      clearTimeout(realLater.current);
    },
    [],
  );

  const { measure, measureNow, forgetDetached } = useSizes(scroller, heights, viewHeight, (from) => {
    dirtyFrom.current = Math.min(dirtyFrom.current, from);
    if (viewHeight.current >= 0) lastViewHeight = viewHeight.current;
    quietUntilNextTask('quiet', !measuring.current);
    settleNow.current(true);
    setTick((t) => t + 1);
  });

  useLayoutEffect(() => {
    if (!scroll) return;
    pin.current = { index: scroll.index, align: scroll.align };
    settle();
  }, [scroll, settle]);

  // New rows or another list (their estimates may be better now; the offsets were redone in the render).
  useLayoutEffect(() => settle(), [version, resetKey, settle]);

  usePinRelease(scroller, pin, settle);

  /** A scroll we did not make (scrollbar, keys, assistive tech, script) ends the pin. */
  const onScroll = () => {
    const el = scroller.current;
    const top = el?.scrollTop ?? 0;
    const user = Math.abs(top - placed.current) > 1;
    if (el && pin.current && user) pin.current = null;
    // A task of its own: the share of rows a task before it drew does not hold back the rows it brings on screen.
    if (observing.current === 'drew') observing.current = false;
    update(user, undefined, takeStep(reading.current, top));
  };

  const slices = useSlices({
    count,
    range: rangeRef,
    drawn,
    reading,
    observing,
    measuring,
    forgetDetached,
    measureNow,
    quietUntilNextTask,
    redraw: () => setTick((t) => t + 1),
  });

  const o = layout();
  const p = pin.current;
  const t0 = performance.now();
  const out = drawRows({
    range,
    count,
    key: resetKey,
    o,
    drawn,
    seed: p ? (p.align === 'end' ? Math.min(p.index, count - 1) : p.index) : anchor.current.index,
    upFirst: p ? p.align === 'end' : reading.current.upward,
    quiet: observing.current,
    budget: slices.budget(),
    costOf: cost,
    measure,
    render,
  });
  slices.timed(t0, out.cost);
  return (
    <div ref={scroller} class="vl" onScroll={onScroll} tabIndex={0} role="feed" aria-label={label} aria-busy={false}>
      <div ref={inner} class="vl-inner" style={{ height: `${o[count] ?? 0}px` }}>
        <div class="vl-window" style={{ transform: `translateY(${o[out.from] ?? 0}px)` }}>
          {out.rows}
        </div>
      </div>
    </div>
  );
}
