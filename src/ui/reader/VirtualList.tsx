import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { ScrollRequest } from './model.ts';

/** Extra pixels rendered above and below the viewport. */
const OVERSCAN = 800;

interface Props {
  count: number;
  /** Changes whenever rendered content may have changed (new pages, toggles). */
  version: number;
  /** Resets measurements when it changes (another branch or filter). */
  resetKey: string;
  estimate?: number;
  scroll: ScrollRequest | null;
  render: (index: number) => ComponentChildren;
  onTop?: (index: number) => void;
  label: string;
}

/** Index of the item containing pixel `y`, by binary search over prefix offsets. */
function indexAt(offsets: Float64Array, count: number, y: number): number {
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
export function VirtualList({ count, version, resetKey, estimate = 140, scroll, render, onTop, label }: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  const heights = useRef<number[]>([]);
  const offsets = useRef(new Float64Array(1));
  const dirty = useRef(true);
  const pin = useRef<{ index: number; align: 'start' | 'end' } | null>(null);
  const anchor = useRef({ index: 0, delta: 0 });
  const elements = useRef(new Map<Element, number>());
  const observer = useRef<ResizeObserver | null>(null);
  const [range, setRange] = useState({ start: 0, end: 0 });
  const [, setTick] = useState(0);

  const layout = useCallback(() => {
    if (!dirty.current) return offsets.current;
    const h = heights.current;
    const o = offsets.current.length === count + 1 ? offsets.current : new Float64Array(count + 1);
    for (let i = 0; i < count; i++) o[i + 1] = o[i] + (h[i] ?? estimate);
    offsets.current = o;
    dirty.current = false;
    return o;
  }, [count, estimate]);

  /** Puts the pinned item, or else the anchor item, back where it belongs; then recomputes the range. */
  const settle = useCallback(() => {
    const el = scroller.current;
    if (!el || count === 0) return;
    const o = layout();
    const p = pin.current;
    let top: number;
    if (p) {
      const i = Math.min(p.index, count - 1);
      top = p.align === 'start' ? o[i] : o[i + 1] - el.clientHeight;
    } else top = o[Math.min(anchor.current.index, count - 1)] + anchor.current.delta;
    top = Math.max(0, Math.min(top, o[count] - el.clientHeight));
    if (Math.abs(el.scrollTop - top) >= 1) el.scrollTop = top;
    update();
  }, [count, layout]);

  /** Recomputes the rendered range and the anchor from the scroll position. */
  const update = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    const o = layout();
    const top = el.scrollTop;
    const first = indexAt(o, count, top);
    anchor.current = { index: first, delta: top - o[first] };
    onTop?.(first);
    const start = indexAt(o, count, Math.max(0, top - OVERSCAN));
    const end = Math.min(count, indexAt(o, count, top + el.clientHeight + OVERSCAN) + 1);
    setRange((r) => (r.start === start && r.end === end ? r : { start, end }));
  }, [count, layout, onTop]);

  // A new branch or filter: forget measurements.
  useLayoutEffect(() => {
    heights.current = [];
    dirty.current = true;
    anchor.current = { index: 0, delta: 0 };
    setTick((t) => t + 1);
  }, [resetKey, count]);

  useEffect(() => {
    const ro = new ResizeObserver((entries) => {
      let changed = false;
      for (const entry of entries) {
        const index = elements.current.get(entry.target);
        if (index === undefined) continue;
        const height = (entry.target as HTMLElement).offsetHeight;
        if (heights.current[index] !== height) {
          heights.current[index] = height;
          changed = true;
        }
      }
      if (changed) {
        dirty.current = true;
        settle();
        setTick((t) => t + 1);
      }
    });
    observer.current = ro;
    for (const el of elements.current.keys()) ro.observe(el);
    return () => ro.disconnect();
  }, [settle]);

  useLayoutEffect(() => {
    if (!scroll) return;
    pin.current = { index: scroll.index, align: scroll.align };
    settle();
  }, [scroll, settle]);

  useLayoutEffect(() => {
    settle();
  }, [version, settle]);

  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    // Any sign of the user's own scrolling ends a pin.
    const release = () => { pin.current = null; };
    const onKey = (e: KeyboardEvent) => { if (/^(Arrow|Page|Home|End| )/.test(e.key)) release(); };
    el.addEventListener('wheel', release, { passive: true });
    el.addEventListener('touchstart', release, { passive: true });
    el.addEventListener('keydown', onKey);
    el.addEventListener('pointerdown', (e) => { if (e.target === el) release(); });
    const onResize = () => settle();
    window.addEventListener('resize', onResize);
    return () => {
      el.removeEventListener('wheel', release);
      el.removeEventListener('touchstart', release);
      el.removeEventListener('keydown', onKey);
      window.removeEventListener('resize', onResize);
    };
  }, [settle]);

  const measure = (index: number) => (el: HTMLElement | null) => {
    if (!el) return;
    if (elements.current.get(el) === index) return;
    elements.current.set(el, index);
    observer.current?.observe(el);
  };

  // Forget detached elements.
  useLayoutEffect(() => {
    for (const [el] of elements.current) {
      if (!el.isConnected) {
        observer.current?.unobserve(el);
        elements.current.delete(el);
      }
    }
  });

  const o = layout();
  const start = Math.min(range.start, count);
  const end = Math.min(Math.max(range.end, start), count);
  const rows = [];
  for (let i = start; i < end; i++) {
    rows.push(
      <div key={`${resetKey}:${i}`} ref={measure(i)} class="vl-row" data-index={i} role="article" aria-posinset={i + 1} aria-setsize={count}>
        {render(i)}
      </div>,
    );
  }
  return (
    <div ref={scroller} class="vl" onScroll={update} tabIndex={0} role="feed" aria-label={label} aria-busy={false}>
      <div class="vl-inner" style={{ height: `${o[count] ?? 0}px` }}>
        <div class="vl-window" style={{ transform: `translateY(${o[start] ?? 0}px)` }}>{rows}</div>
      </div>
    </div>
  );
}
