/**
 * Rows whose item arrives after they were drawn (a page of items the worker sends while the list
 * scrolls into it) are filled in slices after frames, the row nearest the top of the screen first,
 * rather than all in the task that brings the page: at 4× CPU a page's rows rendered at once, with
 * the layout they then forced, made the longest task of a scroll.
 */
import { Component } from 'preact';
import { ItemRow } from '../items/ItemView.tsx';
import type { RenderItem } from '../../../core/view/types.ts';
import type { ReaderModel } from '../model.ts';
import { afterNextFrame } from './virtual-hooks.ts';

/** Time one slice may spend filling rows (the first row always goes in). */
const BUDGET_MS = 8;

/** Rows waiting for their turn: how to show each, and its distance from the top row. */
const waiting = new Map<() => void, () => number>();
let posted = false;

function post() {
  if (posted || waiting.size === 0) return;
  posted = true;
  afterNextFrame(() => void fill());
}

/**
 * One slice: shows the nearest waiting rows until the budget is spent, each rendered before the
 * clock is read again, then lays them out here: left to the next frame, their style and layout
 * came on top of its paint while the reader scrolled.
 */
async function fill() {
  posted = false;
  const start = performance.now();
  const order = [...waiting].sort((a, b) => a[1]() - b[1]());
  let shown = 0;
  for (const [show] of order) {
    if (!waiting.delete(show)) continue;
    show();
    shown++;
    // Preact renders in a microtask: let it run before reading the clock.
    await new Promise<void>((resolve) => queueMicrotask(resolve));
    if (performance.now() - start >= BUDGET_MS) break;
  }
  if (shown > 0) void document.body.offsetHeight;
  post();
}

/** Queues a row to be shown in a later slice; returns a function that takes it off the queue. */
export function waitForTurn(show: () => void, distance: () => number): () => void {
  waiting.set(show, distance);
  post();
  return () => {
    waiting.delete(show);
  };
}

/** Rows waiting for their turn (for tests). */
export function waitingRows(): number {
  return waiting.size;
}

interface RowProps {
  index: number;
  item: RenderItem | undefined;
  model: ReaderModel;
  hit: boolean;
  reveal: string;
}

/**
 * Row `index` of the transcript: its item (`model.item(index)`, passed in so that its arrival
 * changes the props) at once when it is at hand as the row is drawn, else a placeholder until the
 * item has come and the row's turn in a slice (waitForTurn). It renders again only when its own
 * props or state change: the list renders all its rows again at every scroll step and measurement.
 */
export class PacedRow extends Component<RowProps, { shown: boolean }> {
  private cancel: (() => void) | null = null;

  constructor(props: RowProps) {
    super(props);
    this.state = { shown: props.item !== undefined };
  }

  shouldComponentUpdate(next: RowProps, state: { shown: boolean }): boolean {
    const p = this.props;
    return state.shown !== this.state.shown || next.item !== p.item || next.hit !== p.hit || next.reveal !== p.reveal || next.model !== p.model;
  }

  componentDidMount() {
    this.wait();
  }

  componentDidUpdate() {
    this.wait();
  }

  componentWillUnmount() {
    this.cancel?.();
  }

  /** Once the item has come, waits for the row's turn to show it. */
  private wait() {
    if (this.state.shown || this.props.item === undefined || this.cancel) return;
    this.cancel = waitForTurn(
      () => {
        this.cancel = null;
        this.setState({ shown: true });
      },
      () => Math.abs(this.props.index - this.props.model.topIndex.peek()),
    );
  }

  render({ item, model, hit, reveal }: RowProps, { shown }: { shown: boolean }) {
    return <ItemRow item={shown ? item : undefined} model={model} hit={hit} reveal={reveal} />;
  }
}
