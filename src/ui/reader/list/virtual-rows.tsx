/** The rows one render of the virtual list (VirtualList.tsx) puts in the DOM: skeletons while a scroll jumps, else real rows added a slice at a time. */
import type { ComponentChildren, VNode } from 'preact';
import { growSpan, type Range } from './virtual-layout.ts';

/** The real rows drawn (a part of the range while its rows are put in slice by slice), and of which list. */
export interface Drawn {
  start: number;
  end: number;
  key: string;
}

/** Why a render adds no rows: inside an observer's report or a worker's reply, or its task has drawn its share. */
export type Quiet = false | 'quiet' | 'drew';

/** A budget that draws exactly one row. */
const ONE_ROW = Number.MIN_VALUE;

/**
 * Rows `range` of a list of `count` (offsets `o`): skeletons of the rows' heights when the range
 * is `fast`; else the rows already drawn (`drawn`, updated here) and new ones from `seed` outwards
 * (`upFirst`: above first), as many as `budget` allows (in the units of `costOf`). `quiet` adds
 * none, but a first row where none of the range is drawn ('quiet' only: not after a task's share);
 * a new list (another `key`) gets its seed row only. Returns the rows, the first one's index, and
 * how many were added at what cost.
 */
export function drawRows(p: {
  range: Range;
  count: number;
  key: string;
  o: Float64Array;
  drawn: { current: Drawn };
  seed: number;
  upFirst: boolean;
  quiet: Quiet;
  budget: number;
  costOf?: (index: number) => number;
  measure: (index: number) => (el: HTMLElement | null) => void;
  render: (index: number) => ComponentChildren;
}): { rows: VNode[]; from: number; added: number; cost: number } {
  const { range, count, key, o } = p;
  const start = Math.min(range.start, count);
  const end = Math.min(Math.max(range.end, start), count);
  const rows: VNode[] = [];
  if (range.fast) {
    p.drawn.current = { start: 0, end: 0, key };
    for (let i = start; i < end; i++)
      rows.push(<div key={`${key}:s${i}`} class="vl-row vl-skeleton" data-index={i} aria-hidden="true" style={{ height: `${o[i + 1] - o[i]}px` }} />);
    return { rows, from: start, added: 0, cost: 0 };
  }
  if (end <= start) return { rows, from: start, added: 0, cost: 0 };
  const d = p.drawn.current;
  const fresh = d.key !== key;
  const reseed = fresh || d.end <= start || d.start >= end || d.end <= d.start;
  const budget = p.quiet ? (reseed && p.quiet === 'quiet' ? ONE_ROW : 0) : fresh ? ONE_ROW : p.budget;
  const { a, b, added, cost } = growSpan({ a: d.start, b: d.end, reseed: fresh }, { start, end, seed: p.seed, budget, upFirst: p.upFirst, costOf: p.costOf });
  p.drawn.current = { start: a, end: b, key };
  for (let i = a; i < b; i++)
    rows.push(
      <div key={`${key}:${i}`} ref={p.measure(i)} class="vl-row" data-index={i} role="article" aria-posinset={i + 1} aria-setsize={count}>
        {p.render(i)}
      </div>,
    );
  return { rows, from: a, added, cost };
}
