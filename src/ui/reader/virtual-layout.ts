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
 * are of another list or outside `start`–`end`, grown by up to `budget` rows towards `start`
 * (`upFirst`) or `end` first. Returns the new span and how many rows it added.
 */
export function growSpan(
  span: { a: number; b: number; reseed: boolean },
  o: { start: number; end: number; seed: number; budget: number; upFirst: boolean },
): { a: number; b: number; added: number } {
  const { start, end, upFirst } = o;
  let { a, b } = span;
  if (span.reseed || b <= start || a >= end || b <= a) {
    a = Math.max(start, Math.min(o.seed, end - 1));
    b = a;
  }
  a = Math.max(a, start);
  b = Math.min(b, end);
  let budget = o.budget;
  let added = 0;
  while (budget > 0 && (a > start || b < end)) {
    if (b === a) b++;
    else if (upFirst ? a > start : b >= end) a--;
    else b++;
    budget--;
    added++;
  }
  return { a, b, added };
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
