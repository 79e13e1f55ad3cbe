import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { postTask } from '../markdown/scheduler.ts';
import type { ScrollRequest } from './model.ts';

/** Extra pixels rendered above and below the viewport (added after the visible rows, when the page is idle). */
const OVERSCAN = 500;

/** How long the list must stay still after a jump before the rows themselves are rendered. */
const SETTLE_MS = 40;

/**
 * Time one render may spend on rows it adds before the rest wait for a later task: a screen of
 * heavy rows on a slow phone is put in over a few tasks, none of them long, the rows nearest the
 * pinned or top row first.
 */
const SLICE_MS = 10;
/** What a new row is guessed to cost (ms) before any has been timed. */
const FIRST_ROW_MS = 5;

/** A task after the current one, without setTimeout's clamping. */
const nextTask = postTask();

/** The rows in the DOM; `fast`: a scroll jumped past everything rendered, so they are drawn as skeletons for now. */
interface Range {
  start: number;
  end: number;
  fast: boolean;
}

/** Runs `fn` when the page is idle (soon at the latest); returns a cancel function. */
function whenIdle(fn: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(fn, { timeout: 150 });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(fn, 50);
  return () => clearTimeout(id);
}

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
  onTop?: (index: number) => void;
  label: string;
}

/** Index of the item containing pixel `y`, by binary search over prefix offsets. */
export function indexAt(offsets: Float64Array, count: number, y: number): number {
  let lo = 0;
  let hi = count - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (offsets[mid] <= y) lo = mid;
    else hi = mid - 1;
  }
  return Math.max(0, lo);
}

/**
 * A virtualized vertical list of items of unknown, changing heights: only what is on screen (plus
 * overscan) is in the DOM, heights are measured with a ResizeObserver, and the item at the top of
 * the viewport stays put when items above it change size. A scroll request pins an item (to the
 * top, or its bottom to the bottom) until the user scrolls.
 */
export function VirtualList({ count, version, resetKey, estimate = 140, hints, scroll, render, onTop, label }: Props) {
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
  const pin = useRef<{ index: number; align: 'start' | 'end' } | null>(null);
  /** The scrollTop this component last set; any other position means someone else scrolled. */
  const placed = useRef(-1);
  /** The scrollTop the anchor was last taken from (-1: none yet). */
  const seen = useRef(-1);
  const anchor = useRef({ index: 0, delta: 0 });
  const elements = useRef(new Map<Element, number>());
  const observer = useRef<ResizeObserver | null>(null);
  const [range, setRangeState] = useState<Range>({ start: 0, end: 0, fast: false });
  const rangeRef = useRef<Range>(range);
  const realLater = useRef<ReturnType<typeof setTimeout> | null>(null);
  const setRange = (next: Range) => {
    const r = rangeRef.current;
    if (r.start === next.start && r.end === next.end && r.fast === next.fast) return;
    rangeRef.current = next;
    setRangeState(next);
  };
  const [, setTick] = useState(0);
  /** The real rows rendered (a part of `range` while its rows are put in slice by slice). */
  const drawn = useRef({ start: 0, end: 0, key: '' });
  /** What a new row has cost lately, render to layout (ms; smoothed). */
  const rowMs = useRef(FIRST_ROW_MS);
  /** When this render began and how many rows it added (timed in the layout effect). */
  const timing = useRef({ t0: 0, added: 0 });
  const morePosted = useRef(false);
  /** The scroller's height, kept by a ResizeObserver: reading clientHeight after a render forces a layout. */
  const viewHeight = useRef(-1);

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
    const h = heights.current;
    const e = hints && hints.length === count ? hints : null;
    const o = offsets.current.length === count + 1 ? offsets.current : new Float64Array(count + 1);
    // Only from the first changed item on: a measured row changes the offsets below it, not above.
    // Typed arrays and no calls: this runs over every item (30,000 of them) on the first render.
    for (let i = from; i < count; i++) {
      const measured = h[i];
      const guess = e ? e[i] : -1;
      o[i + 1] = o[i] + (measured >= 0 ? measured : guess >= 0 ? guess : estimate);
    }
    offsets.current = o;
    dirty.current = false;
    dirtyFrom.current = count;
    return o;
  }, [count, estimate, hints]);

  /** Puts the pinned item, or else the anchor item, back where it belongs; then recomputes the range. */
  const settle = useCallback(() => {
    const el = scroller.current;
    if (!el || count === 0) return;
    const o = layout();
    // The new total height must be in place before scrollTop is set, or the browser clamps it to the old one.
    const height = `${o[count]}px`;
    if (inner.current && inner.current.style.height !== height) inner.current.style.height = height;
    const view = clientHeight(el);
    const p = pin.current;
    let top: number;
    if (p) {
      const i = Math.min(p.index, count - 1);
      top = p.align === 'start' ? o[i] : o[i + 1] - view;
    } else {
      // Scrolled by someone else since the anchor was taken (a script's or the user's scroll whose
      // event is still to come, when an observer report lands first): that position stands.
      const now = el.scrollTop;
      if (seen.current >= 0 && Math.abs(now - seen.current) > 1) {
        const first = indexAt(o, count, now);
        anchor.current = { index: first, delta: now - o[first] };
      }
      top = o[Math.min(anchor.current.index, count - 1)] + anchor.current.delta;
    }
    top = Math.max(0, Math.min(top, o[count] - view));
    // One read of the position (the layout it needs is the frame's anyway), at most one write.
    if (Math.abs(el.scrollTop - top) >= 1) el.scrollTop = top;
    placed.current = el.scrollTop;
    update();
  }, [count, layout]);

  /** The scroller's height: the ResizeObserver's figure once it has one. */
  const clientHeight = (el: HTMLElement) => {
    if (viewHeight.current < 0) viewHeight.current = el.clientHeight;
    return viewHeight.current;
  };

  /**
   * Recomputes the rendered range and the anchor from the scroll position. The rows on screen are
   * rendered at once (with those already rendered nearby); the overscan rows follow when the page
   * is idle, so a scroll step only pays for what comes on screen. When the user's scrolling jumps
   * past everything rendered (a fling, a drag of the scrollbar), the rows are drawn as skeletons
   * of their known or estimated height until the list stays still for SETTLE_MS: a fling costs
   * next to nothing per frame, whatever the rows hold.
   */
  const update = useCallback(
    (scrolling = false) => {
      const el = scroller.current;
      if (!el) return;
      const o = layout();
      const top = el.scrollTop;
      seen.current = top;
      const view = clientHeight(el);
      const first = indexAt(o, count, top);
      anchor.current = { index: first, delta: top - o[first] };
      onTop?.(first);
      const last = Math.min(count, indexAt(o, count, top + view) + 1);
      const start = indexAt(o, count, Math.max(0, top - OVERSCAN));
      const end = Math.min(count, indexAt(o, count, top + view + OVERSCAN) + 1);
      const r = rangeRef.current;
      const rendered = r.end > r.start;
      const overlaps = !r.fast && r.start < last && r.end > first;
      extendLater.current?.();
      extendLater.current = null;
      if (realLater.current !== null) clearTimeout(realLater.current);
      realLater.current = null;
      if (scrolling && rendered && (r.fast || !overlaps)) {
        setRange({ start: first, end: last, fast: true });
        realLater.current = setTimeout(() => {
          realLater.current = null;
          update();
        }, SETTLE_MS);
        return;
      }
      // Keep what is rendered inside the overscan; add the visible rows.
      const keep = overlaps && r.start < end && r.end > start;
      setRange({ start: Math.min(first, keep ? Math.max(r.start, start) : first), end: Math.max(last, keep ? Math.min(r.end, end) : last), fast: false });
      extendLater.current = whenIdle(() => {
        extendLater.current = null;
        const now = rangeRef.current;
        setRange({ start: Math.min(now.start, start), end: Math.max(now.end, end), fast: false });
      });
    },
    [count, layout, onTop],
  );

  useEffect(
    () => () => {
      extendLater.current?.();
      if (realLater.current !== null) clearTimeout(realLater.current);
    },
    [],
  );

  // A new branch or filter: forget measurements. Rows added at the end of the same list keep them,
  // and the rows on screen stay where they are.
  const shown = useRef({ resetKey, count });
  useLayoutEffect(() => {
    const grew = shown.current.resetKey === resetKey && count > shown.current.count;
    shown.current = { resetKey, count };
    if (grew) {
      dirty.current = true;
      setTick((t) => t + 1);
      return;
    }
    heights.current = new Float64Array(count).fill(-1);
    dirty.current = true;
    anchor.current = { index: 0, delta: 0 };
    seen.current = -1;
    setTick((t) => t + 1);
  }, [resetKey, count]);

  useEffect(() => {
    const ro = new ResizeObserver((entries) => {
      let changed = false;
      for (const entry of entries) {
        if (entry.target === scroller.current) {
          const h = (entry.target as HTMLElement).clientHeight;
          if (h !== viewHeight.current) {
            viewHeight.current = h;
            changed = true;
          }
          continue;
        }
        const index = elements.current.get(entry.target);
        if (index === undefined) continue;
        const height = (entry.target as HTMLElement).offsetHeight;
        if (heights.current[index] !== height) {
          heights.current[index] = height;
          dirtyFrom.current = Math.min(dirtyFrom.current, index);
          changed = true;
        }
      }
      if (changed) {
        settle();
        setTick((t) => t + 1);
      }
    });
    observer.current = ro;
    if (scroller.current) ro.observe(scroller.current);
    for (const el of elements.current.keys()) ro.observe(el);
    return () => ro.disconnect();
  }, [settle]);

  useLayoutEffect(() => {
    if (!scroll) return;
    pin.current = { index: scroll.index, align: scroll.align };
    settle();
  }, [scroll, settle]);

  useLayoutEffect(() => {
    // New rows arrived: their estimates may be better now.
    dirty.current = true;
    settle();
  }, [version, settle]);

  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    // Any sign of the user's own scrolling ends a pin.
    const release = () => {
      pin.current = null;
    };
    const onKey = (e: KeyboardEvent) => {
      if (/^(Arrow|Page|Home|End| )/.test(e.key)) release();
    };
    el.addEventListener('wheel', release, { passive: true });
    el.addEventListener('touchstart', release, { passive: true });
    el.addEventListener('keydown', onKey);
    el.addEventListener('pointerdown', (e) => {
      if (e.target === el) release();
    });
    const onResize = () => {
      viewHeight.current = -1;
      settle();
    };
    window.addEventListener('resize', onResize);
    return () => {
      el.removeEventListener('wheel', release);
      el.removeEventListener('touchstart', release);
      el.removeEventListener('keydown', onKey);
      window.removeEventListener('resize', onResize);
    };
  }, [settle]);

  /** A scroll we did not make (scrollbar, keys, assistive tech, script) ends the pin. */
  const onScroll = () => {
    const el = scroller.current;
    const user = Math.abs((el?.scrollTop ?? 0) - placed.current) > 1;
    if (el && pin.current && user) pin.current = null;
    update(user);
  };

  const measure = (index: number) => (el: HTMLElement | null) => {
    if (!el) return;
    if (elements.current.get(el) === index) return;
    elements.current.set(el, index);
    observer.current?.observe(el);
  };

  // Forget detached elements; time the rows this render added; ask for the next slice.
  useLayoutEffect(() => {
    for (const [el] of elements.current) {
      if (!el.isConnected) {
        observer.current?.unobserve(el);
        elements.current.delete(el);
      }
    }
    const { t0, added } = timing.current;
    if (added > 0) {
      const each = (performance.now() - t0) / added;
      rowMs.current = Math.max(0.05, rowMs.current * 0.5 + each * 0.5);
      timing.current = { t0: 0, added: 0 };
    }
    const d = drawn.current;
    const r = rangeRef.current;
    const short = !r.fast && (d.start > Math.max(0, r.start) || d.end < Math.min(r.end, count));
    if (short && !morePosted.current) {
      // The first rows of a new list in the next task (before the frame that shows the page around
      // them); every further slice after the next frame (which lays out and paints the one before),
      // or soon where no frame comes (a hidden page).
      morePosted.current = true;
      let done = false;
      const more = () => {
        if (done) return;
        done = true;
        clearTimeout(fallback);
        morePosted.current = false;
        setTick((t) => t + 1);
      };
      const fallback = setTimeout(more, 100);
      if (d.end <= d.start) nextTask(more);
      else requestAnimationFrame(() => nextTask(more));
    }
  });

  const o = layout();
  const start = Math.min(range.start, count);
  const end = Math.min(Math.max(range.end, start), count);
  const rows = [];
  let from = start;
  if (range.fast) {
    drawn.current = { start: 0, end: 0, key: resetKey };
    for (let i = start; i < end; i++) {
      rows.push(<div key={`${resetKey}:s${i}`} class="vl-row vl-skeleton" data-index={i} aria-hidden="true" style={{ height: `${o[i + 1] - o[i]}px` }} />);
    }
  } else if (end > start) {
    // The rows already drawn stay; new ones are added from the pinned (or top) row outwards, as
    // many as fit in SLICE_MS at the latest rate; the rest come in the next tasks.
    let { start: a, end: b } = drawn.current;
    // A new list draws only the pinned (or top) row in the task that builds it (the page around it is work enough there).
    const fresh = drawn.current.key !== resetKey;
    if (fresh || b <= start || a >= end || b <= a) {
      const p = pin.current;
      const seed = p ? (p.align === 'end' ? Math.min(p.index, end - 1) : p.index) : anchor.current.index;
      a = Math.max(start, Math.min(seed, end - 1));
      b = a;
    }
    a = Math.max(a, start);
    b = Math.min(b, end);
    const upFirst = pin.current?.align === 'end';
    let budget = fresh ? 1 : Math.max(1, Math.floor(SLICE_MS / rowMs.current));
    let added = 0;
    while (budget > 0 && (a > start || b < end)) {
      if (b === a) b++;
      else if (upFirst ? a > start : b >= end) a--;
      else b++;
      budget--;
      added++;
    }
    drawn.current = { start: a, end: b, key: resetKey };
    timing.current = { t0: performance.now(), added };
    from = a;
    for (let i = a; i < b; i++) {
      rows.push(
        <div key={`${resetKey}:${i}`} ref={measure(i)} class="vl-row" data-index={i} role="article" aria-posinset={i + 1} aria-setsize={count}>
          {render(i)}
        </div>,
      );
    }
  }
  return (
    <div ref={scroller} class="vl" onScroll={onScroll} tabIndex={0} role="feed" aria-label={label} aria-busy={false}>
      <div ref={inner} class="vl-inner" style={{ height: `${o[count] ?? 0}px` }}>
        <div class="vl-window" style={{ transform: `translateY(${o[from] ?? 0}px)` }}>
          {rows}
        </div>
      </div>
    </div>
  );
}
