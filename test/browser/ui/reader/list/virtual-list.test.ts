// The reader's virtual list (src/ui/reader/list/VirtualList.tsx) in Chromium: a screen of heavy rows is
// put in over several tasks, the pinned last row first, and ends with the last row at the bottom
// of the viewport and every visible row drawn.
import { h, render } from 'preact';
import { afterEach, expect, test } from 'vitest';
import { VirtualList } from '../../../../../src/ui/reader/list/VirtualList.tsx';
import { busy, listHost, mountIn } from './list-host.ts';

test('a screen of costly rows comes over several tasks, the pinned last row first, and ends pinned to the bottom', async () => {
  const host = listHost();
  const count = 1000;
  const drawnAt: number[] = [];
  let task = 0;
  // A task counter: each message is a new task, so rows rendered under different values came in different tasks.
  const channel = new MessageChannel();
  let ticking = true;
  channel.port1.onmessage = () => {
    task++;
    if (ticking) channel.port2.postMessage(null);
  };
  channel.port2.postMessage(null);
  const row = (i: number) => {
    drawnAt[i] ??= task;
    busy(4);
    return h('div', { class: 'row', style: { height: '120px' } }, `row ${i}`);
  };
  const css = document.createElement('style');
  css.textContent = '.vl { flex: 1; overflow-y: auto; min-height: 0 } .vl-inner { position: relative } .vl-window { position: absolute; inset: 0 0 auto 0 }';
  host.append(css);
  const mount = mountIn(host);
  render(
    h(VirtualList, { count, version: 1, resetKey: 'k', estimate: 120, scroll: { index: count - 1, align: 'end', seq: 1 }, render: row, label: 'rows' }),
    mount,
  );
  const scroller = mount.querySelector<HTMLElement>('.vl')!;
  const visible = () => {
    const view = scroller.getBoundingClientRect();
    return [...scroller.querySelectorAll<HTMLElement>('.vl-row')].filter((el) => {
      const box = el.getBoundingClientRect();
      return box.bottom > view.top && box.top < view.bottom;
    });
  };
  // Done: the last row's bottom at the viewport's bottom, and the rows above it fill the viewport.
  await expect
    .poll(() => {
      const last = scroller.querySelector<HTMLElement>(`.vl-row[data-index="${count - 1}"]`);
      if (!last) return false;
      const gap = scroller.getBoundingClientRect().bottom - last.getBoundingClientRect().bottom;
      const shown = visible().reduce((sum, el) => sum + el.getBoundingClientRect().height, 0);
      return Math.abs(gap) < 2 && shown >= scroller.clientHeight - 2;
    })
    .toBe(true);
  ticking = false;
  const indices = Object.keys(drawnAt).map(Number);
  const firstTask = Math.min(...indices.map((i) => drawnAt[i]));
  // The last row came in the first task that drew any row; the screen (5 or more rows of 4 ms) took more than one task.
  expect(drawnAt[count - 1]).toBe(firstTask);
  expect(new Set(indices.map((i) => drawnAt[i])).size).toBeGreaterThan(1);
  // No task drew a whole screen (5 rows of 120 px in 600): slices of 10 ms hold 2 of these rows, a task may hold two renders.
  const perTask = new Map<number, number>();
  for (const i of indices) perTask.set(drawnAt[i], (perTask.get(drawnAt[i]) ?? 0) + 1);
  expect(Math.max(...perTask.values())).toBeLessThan(5);
  // Rows nearer the last one came no later than those above them.
  const onScreen = visible().map((el) => Number(el.dataset.index));
  for (const i of onScreen) if (i + 1 < count) expect(drawnAt[i]).toBeGreaterThanOrEqual(drawnAt[i + 1]);
});

/** Layout reads and scroll writes (each forces a layout when the page has changed since the last one) made while `armed()`. */
function watchLayoutReads(armed: () => boolean): string[] {
  const seen: string[] = [];
  const getters: Array<[object, string]> = [
    ...['clientHeight', 'clientWidth', 'clientTop', 'scrollTop', 'scrollLeft', 'scrollHeight', 'scrollWidth'].map(
      (p) => [Element.prototype, p] as [object, string],
    ),
    ...['offsetHeight', 'offsetWidth', 'offsetTop', 'offsetLeft', 'offsetParent', 'innerText'].map((p) => [HTMLElement.prototype, p] as [object, string]),
  ];
  for (const [proto, name] of getters) {
    const d = Object.getOwnPropertyDescriptor(proto, name)!;
    Object.defineProperty(proto, name, {
      ...d,
      get(this: Element) {
        if (armed()) seen.push(`read ${name}`);
        return d.get!.call(this);
      },
      ...(d.set
        ? {
            set(this: Element, v: unknown) {
              if (armed()) seen.push(`set ${name}`);
              d.set!.call(this, v);
            },
          }
        : {}),
    });
    restore.push(() => Object.defineProperty(proto, name, d));
  }
  for (const [proto, name] of [
    [Element.prototype, 'getBoundingClientRect'],
    [Element.prototype, 'getClientRects'],
    [Element.prototype, 'scrollIntoView'],
    [Element.prototype, 'scrollTo'],
    [HTMLElement.prototype, 'focus'],
  ] as Array<[Record<string, (...a: unknown[]) => unknown>, string]>) {
    const f = proto[name];
    proto[name] = function (this: unknown, ...args: unknown[]) {
      if (armed()) seen.push(`call ${name}`);
      return f.apply(this, args);
    };
    restore.push(() => {
      proto[name] = f;
    });
  }
  return seen;
}
const restore: Array<() => void> = [];
afterEach(() => {
  for (const undo of restore.splice(0)) undo();
});

test('mounting a pinned list reads no layout before the first frame, and no ResizeObserver loop error comes while it fills and scrolls', async () => {
  const host = listHost(true);
  const loopErrors: string[] = [];
  const onError = (e: ErrorEvent) => {
    if (/ResizeObserver/.test(e.message)) loopErrors.push(e.message);
  };
  window.addEventListener('error', onError);
  restore.push(() => window.removeEventListener('error', onError));
  const count = 1000;
  // Rows of different heights (text that wraps), so measuring them moves the rows below.
  const row = (i: number) => h('div', { style: { padding: '4px' } }, `row ${i} `.repeat(5 + ((i * 7) % 40)));
  // Armed from the mount until the first animation frame's callbacks: reads there come before the
  // browser's own layout of the new page, so each one lays it out inside a task.
  let beforeFrame = true;
  requestAnimationFrame(() => {
    beforeFrame = false;
  });
  const reads = watchLayoutReads(() => beforeFrame);
  const mount = mountIn(host);
  render(
    h(VirtualList, { count, version: 1, resetKey: 'k', estimate: 50, scroll: { index: count - 1, align: 'end', seq: 1 }, render: row, label: 'rows' }),
    mount,
  );
  await expect.poll(() => beforeFrame).toBe(false);
  expect(reads).toEqual([]);
  const scroller = mount.querySelector<HTMLElement>('.vl')!;
  const pinned = () => {
    const last = scroller.querySelector<HTMLElement>(`.vl-row[data-index="${count - 1}"]`);
    return last !== null && Math.abs(scroller.getBoundingClientRect().bottom - last.getBoundingClientRect().bottom) < 2;
  };
  await expect.poll(pinned).toBe(true);
  // Scroll up a screen a frame, then let the rows come in.
  for (let i = 0; i < 30; i++) {
    scroller.scrollTop -= 300;
    await new Promise((r) => requestAnimationFrame(r));
  }
  await expect.poll(() => scroller.querySelectorAll('.vl-row:not(.vl-skeleton)').length).toBeGreaterThan(3);
  // Two frames: a ResizeObserver loop error is reported in a frame's rendering step, so one that
  // came from the last rows is out by the end of the next frame.
  for (let i = 0; i < 2; i++) await new Promise((r) => requestAnimationFrame(r));
  expect(loopErrors).toEqual([]);
});
