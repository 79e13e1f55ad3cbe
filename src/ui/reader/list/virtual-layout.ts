/**
 * The virtual list's arithmetic, apart from its component (VirtualList.tsx): prefix offsets over
 * measured heights and guesses, the item at a pixel, and which rows a render adds.
 */

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
 * Writes the offsets of items `from` to `count` into `o` (o[i] is where item i starts): a measured
 * height where there is one, else the caller's hint, else `estimate`. Typed arrays, one running
 * sum and no calls: on the first render this runs over every item (30,000 of them), still cold.
 */
export function sumOffsets(o: Float64Array, heights: Float64Array, hints: Float64Array | null, estimate: number, from: number, count: number): void {
  let at = o[from];
  for (let i = from; i < count; i++) {
    const measured = heights[i];
    const guess = hints ? hints[i] : -1;
    at += measured >= 0 ? measured : guess >= 0 ? guess : estimate;
    o[i + 1] = at;
  }
}

/**
 * The rows drawn after this render: starting from those drawn (`a`–`b`), or from `seed` when they
 * are of another list or outside `start`–`end`, grown towards `start` (`upFirst`) or `end` first
 * by rows whose costs (`costOf`, 1 a row without it) fit in `budget`: none for a budget of 0, else
 * at least one, then each next one only if it still fits; a row of half the budget or more only
 * first, and alone. Returns the new span, how many rows it added and their cost.
 */
export function growSpan(
  span: { a: number; b: number; reseed: boolean },
  o: { start: number; end: number; seed: number; budget: number; upFirst: boolean; costOf?: (index: number) => number },
): { a: number; b: number; added: number; cost: number } {
  const { start, end, upFirst, budget, costOf } = o;
  let { a, b } = span;
  if (span.reseed || b <= start || a >= end || b <= a) {
    a = Math.max(start, Math.min(o.seed, end - 1));
    b = a;
  }
  a = Math.max(a, start);
  b = Math.min(b, end);
  let added = 0;
  let cost = 0;
  while (budget > 0 && (a > start || b < end)) {
    const up = b !== a && (upFirst ? a > start : b >= end);
    const next = b === a ? b : up ? a - 1 : b;
    const c = costOf ? costOf(next) : 1;
    // A row of half the budget or more is heavy: it comes first in its task, and alone.
    const heavy = c * 2 >= budget;
    if (added > 0 && (heavy || cost + c > budget)) break;
    if (up) a--;
    else b++;
    cost += c;
    added++;
    if (heavy) break;
  }
  return { a, b, added, cost };
}

/** Runs `fn` when the page is idle (soon at the latest); returns a cancel function. */
export function whenIdle(fn: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(fn, { timeout: 150 });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(fn, 50);
  return () => clearTimeout(id);
}

/** The rows in the DOM; `fast`: a scroll jumped past everything rendered, so they are drawn as skeletons for now. */
export interface Range {
  start: number;
  end: number;
  fast: boolean;
}

/**
 * The rows to render for scroll position `top` (`r`: those rendered now): the visible ones
 * (`first`…), with those already rendered inside the overscan (`start`–`end`); skeletons of the
 * visible ones when the user's scroll jumped past everything rendered. `reading`: a step shorter
 * than the viewport (a reader's scroll), which keeps every row rendered (the rows it left behind
 * go with those drawn ahead of it, aheadRange, in a task between frames).
 */
export function planRange(o: Float64Array, count: number, r: Range, at: { top: number; view: number; overscan: number; scrolling: boolean; step: number }) {
  const { top, view, overscan, scrolling, step } = at;
  const first = indexAt(o, count, top);
  const last = Math.min(count, indexAt(o, count, top + view) + 1);
  const start = indexAt(o, count, Math.max(0, top - overscan));
  const end = Math.min(count, indexAt(o, count, top + view + overscan) + 1);
  const overlaps = !r.fast && r.start < last && r.end > first;
  if (scrolling && r.end > r.start && (r.fast || !overlaps)) return { first, start, end, reading: false, range: { start: first, end: last, fast: true } };
  const reading = step !== 0 && Math.abs(step) < view;
  const keep = overlaps && r.start < end && r.end > start;
  const from = keep ? (reading ? r.start : Math.max(r.start, start)) : first;
  const to = keep ? (reading ? r.end : Math.min(r.end, end)) : last;
  return { first, start, end, reading, range: { start: Math.min(first, from), end: Math.max(last, to), fast: false } };
}

/**
 * The range after a reader's scroll step (`upward` or down) from `r`: the rows up to the
 * overscan's edge ahead added; behind, once they reach past twice the overscan, those beyond it
 * taken out (at least one row stays: taking rows out above moves every row below in the list's
 * layer, which then paints them all again, so it is done every few steps, not every one); null
 * when nothing changes, or when `r` is nowhere near the overscan (the scroll event's own range
 * comes first: rows ahead are never drawn out of a far-off range).
 */
export function aheadRange(o: Float64Array, count: number, r: Range, at: { top: number; view: number; overscan: number; upward: boolean }): Range | null {
  if (r.fast || count === 0 || r.end <= r.start) return null;
  const start = indexAt(o, count, Math.max(0, at.top - at.overscan));
  const end = Math.min(count, indexAt(o, count, at.top + at.view + at.overscan) + 1);
  if (r.end <= start || r.start >= end) return null;
  const far = at.upward ? Math.min(count, indexAt(o, count, at.top + at.view + 2 * at.overscan) + 1) : indexAt(o, count, Math.max(0, at.top - 2 * at.overscan));
  const next = at.upward
    ? { start: Math.min(r.start, start), end: r.end <= far ? r.end : Math.max(end, r.start + 1), fast: false }
    : { start: r.start >= far ? r.start : Math.min(start, r.end - 1), end: Math.max(r.end, end), fast: false };
  return next.start === r.start && next.end === r.end ? null : next;
}

/**
 * Where the scroll position holds on to when the rows' heights change: the first row on screen and
 * how far into it the top is; at the list's end (scrolled down to its bottom), the end itself, for
 * as long as the list has the same rows (rows measured taller keep the last one at the bottom).
 */
export type Anchor = { index: number; delta: number; endOf?: number };

/** The anchor of a scroll position `top` whose first row on screen is `first`. */
export function anchorAt(o: Float64Array, count: number, top: number, view: number, first: number): Anchor {
  const atEnd = top > 0 && top + view >= o[count] - 1;
  return { index: first, delta: top - o[first], endOf: atEnd ? count : -1 };
}

/** Where the scroller belongs (within the list): the pinned item at the top or its bottom at the bottom, else the anchor item `delta` px above the top (or the end, for an anchor taken there). */
export function placeOf(o: Float64Array, count: number, view: number, pin: { index: number; align: 'start' | 'end' } | null, anchor: Anchor): number {
  const i = Math.min((pin ?? anchor).index, count - 1);
  const top = pin ? (pin.align === 'start' ? o[i] : o[i + 1] - view) : anchor.endOf === count ? o[count] - view : o[i] + anchor.delta;
  return Math.max(0, Math.min(top, o[count] - view));
}
