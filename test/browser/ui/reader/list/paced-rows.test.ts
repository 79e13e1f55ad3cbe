// The reader's paced rows (src/ui/reader/list/paced-rows.tsx) in Chromium: rows whose items arrive at
// once (a page from the worker) are filled over several slices after frames, nearest first, not
// all in the task that brought them.
import { h, render } from 'preact';
import { expect, test } from 'vitest';
import type { RenderItem } from '../../../../../src/core/view/types.ts';
import type { ReaderModel } from '../../../../../src/ui/reader/model.ts';
import { PacedRow, waitForTurn, waitingRows } from '../../../../../src/ui/reader/list/paced-rows.tsx';

/** Spends `ms` of main-thread time (a row as costly as a rich one on a slow phone). */
function busy(ms: number) {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    /* work */
  }
}

test('a dozen rows arriving together are shown over several tasks after frames, nearest the top row first', async () => {
  let frames = 0;
  let counting = true;
  const tick = () => {
    frames++;
    if (counting) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  const shownAt: Array<{ index: number; frame: number }> = [];
  const top = 5;
  // Queued in one task, as a page's rows are when its reply comes: the far ones first.
  for (const index of [11, 0, 10, 1, 9, 2, 8, 3, 7, 4, 6, 5])
    waitForTurn(
      () => {
        busy(3);
        shownAt.push({ index, frame: frames });
      },
      () => Math.abs(index - top),
    );
  const queuedAt = frames;
  await expect.poll(() => shownAt.length).toBe(12);
  counting = false;
  expect(waitingRows()).toBe(0);
  // Nothing in the task that queued them; the first after a frame.
  expect(shownAt[0].frame).toBeGreaterThan(queuedAt);
  // Slices of 8 ms: rows of 3 ms come three at a time at most, in more than one frame.
  const perFrame = new Map<number, number>();
  for (const { frame } of shownAt) perFrame.set(frame, (perFrame.get(frame) ?? 0) + 1);
  expect(Math.max(...perFrame.values())).toBeLessThanOrEqual(3);
  expect(perFrame.size).toBeGreaterThan(3);
  // Nearest the top row first.
  const distances = shownAt.map(({ index }) => Math.abs(index - top));
  expect(distances).toEqual([...distances].sort((a, b) => a - b));
});

test('a row taken off the queue (unmounted, or shown another way) is never shown', async () => {
  const shown: number[] = [];
  const cancel = waitForTurn(
    () => shown.push(1),
    () => 0,
  );
  waitForTurn(
    () => shown.push(2),
    () => 1,
  );
  cancel();
  await expect.poll(() => shown).toEqual([2]);
  expect(waitingRows()).toBe(0);
});

test('a row renders again only when its props change; an item that arrives is shown in a later slice', async () => {
  const host = document.createElement('div');
  document.body.append(host);
  // What a row reads of the model while it waits: the top row's index.
  const model = { topIndex: { peek: () => 0 } } as unknown as ReaderModel;
  let renders = 0;
  const original = PacedRow.prototype.render;
  PacedRow.prototype.render = function (this: PacedRow, ...args: Parameters<typeof original>) {
    renders++;
    return original.apply(this, args);
  };
  try {
    const draw = (item: RenderItem | undefined) => render(h(PacedRow, { index: 3, item, model, hit: false, reveal: '' }), host);
    draw(undefined);
    expect(host.querySelector('.rd-placeholder')).not.toBeNull();
    // The list draws its rows again at every scroll step: the same props, no render.
    draw(undefined);
    draw(undefined);
    expect(renders).toBe(1);
    // The item comes (a folded tool result draws nothing): the placeholder stays until the row's turn.
    const item = { kind: 'folded' } as RenderItem;
    draw(item);
    expect(host.querySelector('.rd-placeholder')).not.toBeNull();
    expect(waitingRows()).toBe(1);
    await expect.poll(() => host.querySelector('.rd-placeholder')).toBeNull();
    expect(waitingRows()).toBe(0);
    const shown = renders;
    draw(item);
    expect(renders).toBe(shown);
  } finally {
    PacedRow.prototype.render = original;
    render(null, host);
    host.remove();
  }
});

test('a slice lays out the rows it showed, in its own task (not in the next frame, with its paint)', async () => {
  let reads = 0;
  const d = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'offsetHeight')!;
  Object.defineProperty(HTMLElement.prototype, 'offsetHeight', {
    configurable: true,
    get(this: HTMLElement) {
      reads++;
      return d.get!.call(this);
    },
  });
  try {
    /** Reads of a layout from the row's show to the end of its slice (a task queued by the show runs after the slice). */
    let inSlice: number | null = null;
    waitForTurn(
      () => {
        const start = reads;
        const next = new MessageChannel();
        next.port1.onmessage = () => {
          inSlice = reads - start;
          next.port1.close();
        };
        next.port2.postMessage(null);
      },
      () => 0,
    );
    await expect.poll(() => inSlice).not.toBeNull();
    expect(inSlice).toBeGreaterThan(0);
  } finally {
    Object.defineProperty(HTMLElement.prototype, 'offsetHeight', d);
  }
});
