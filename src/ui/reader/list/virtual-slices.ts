/**
 * The virtual list's time budget (VirtualList.tsx): a render adds rows up to SLICE_MS of their
 * guessed cost, learns from the layout that follows what a unit of cost takes, and asks for the
 * next slice while the rendered range is not filled yet. A screen of heavy rows on a slow phone is
 * put in over a few tasks, none of them long, the rows nearest the pinned or top row first.
 */
import { useLayoutEffect, useRef } from 'preact/hooks';
import { afterSlice, type Reading } from './virtual-hooks.ts';
import type { Range } from './virtual-layout.ts';
import type { Drawn, Quiet } from './virtual-rows.tsx';

/** Time one render may spend on rows it adds before the rest wait for a later task. */
const SLICE_MS = 10;
/** What a unit of a new row's cost (see `cost`) is guessed to take (ms) before any has been timed. */
const FIRST_UNIT_MS = 5;

/** What the budget reads and moves of the list. */
interface SliceOf {
  count: number;
  range: { current: Range };
  drawn: { current: Drawn };
  reading: { current: Reading };
  observing: { current: Quiet };
  /** Set while the layout effect takes the heights of the rows just drawn (not an observer's report). */
  measuring: { current: boolean };
  /** Drops the sizes of rows taken out; takes the heights of the rows just drawn. */
  forgetDetached(): void;
  measureNow(): void;
  /** Holds back further rows until the next task. */
  quietUntilNextTask(why: 'drew'): void;
  /** Renders the list again (the next slice). */
  redraw(): void;
}

/**
 * Times the rows each render adds and posts the next slice; call it where the list's other layout
 * effects are declared. Returns the row budget of the coming render and the call that starts its timing.
 */
export function useSlices(list: SliceOf) {
  /** What a unit of a new row's cost has taken lately, render to layout (ms; smoothed). */
  const unitMs = useRef(FIRST_UNIT_MS);
  /** When this render began and the cost of the rows it added (timed in the layout effect). */
  const timing = useRef({ t0: 0, cost: 0 });
  const morePosted = useRef(false);

  // Forget detached elements; time the rows this render added; ask for the next slice.
  useLayoutEffect(() => {
    list.forgetDetached();
    const { t0, cost: added } = timing.current;
    const reading = list.reading.current;
    // Rows drawn ahead of a scroll (and those it left behind taken out): their style and layout
    // now, in this task between frames, timed with them (the next slices then hold fewer rows), and
    // their heights taken (the anchor kept) here rather than by the observer inside the next frame.
    list.measuring.current = true;
    if (reading.layOutNow) list.measureNow();
    list.measuring.current = false;
    if (added > 0) {
      // (Light rows, a unit at least: the render of the list and the rows it takes out cost too.)
      const each = (performance.now() - t0) / Math.max(1, added);
      unitMs.current = Math.max(0.05, unitMs.current * 0.5 + each * 0.5);
      timing.current = { t0: 0, cost: 0 };
      // One budget a task: the renders that follow in it (the heights just taken settle the list) add none.
      list.quietUntilNextTask('drew');
    }
    reading.layOutNow = false;
    const d = list.drawn.current;
    const r = list.range.current;
    const short = !r.fast && (d.start > Math.max(0, r.start) || d.end < Math.min(r.end, list.count));
    if (short && !morePosted.current) {
      morePosted.current = true;
      // The first rows of a new list in the next task (before the frame that shows the page around
      // them); every further slice after the next frame (which lays out and paints the one before).
      afterSlice(d.end <= d.start, () => {
        morePosted.current = false;
        list.observing.current = false;
        reading.layOutNow = performance.now() - reading.at < 200;
        list.redraw();
      });
    }
  });

  return {
    /** How many units of row cost the coming render may add. */
    budget: () => SLICE_MS / unitMs.current,
    /** Records that a render began at `t0` and added rows of this cost. */
    timed: (t0: number, cost: number) => {
      timing.current = { t0, cost };
    },
  };
}
