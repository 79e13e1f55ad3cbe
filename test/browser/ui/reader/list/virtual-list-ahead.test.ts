// The reader's virtual list (src/ui/reader/list/VirtualList.tsx) while a reader scrolls: the rows it is
// heading for are drawn in a task after each frame, so the scroll event that brings them on screen
// finds them built; when the scrolling stops, every row on screen is drawn, in order.
import { h, render } from 'preact';
import { expect, test } from 'vitest';
import { VirtualList } from '../../../../../src/ui/reader/list/VirtualList.tsx';
import { busy, listHost, mountIn } from './list-host.ts';

const frame = () => new Promise((r) => requestAnimationFrame(r));

test('a reader scrolling with no idle time between frames finds the rows ahead drawn, not drawn in the scroll event', async () => {
  const host = listHost(true);
  const count = 2000;
  /** Where each row was first drawn (the list calls `render` again for rows it keeps): inside a scroll event or elsewhere, and whether the reader was scrolling then. */
  const drawnIn = new Map<number, { scroll: boolean; scrolling: boolean }>();
  let scrolling = false;
  // Rows of different heights (text that wraps), each costing a little when first drawn (the
  // reader's rows render again only when their own props change).
  const row = (i: number) => {
    if (!drawnIn.has(i)) {
      drawnIn.set(i, { scroll: (window as { event?: Event }).event?.type === 'scroll', scrolling });
      busy(1);
    }
    return h('div', { style: { padding: '4px' } }, `row ${i} `.repeat(5 + ((i * 7) % 40)));
  };
  const mount = mountIn(host);
  render(h(VirtualList, { count, version: 1, resetKey: 'k', estimate: 60, scroll: null, render: row, label: 'rows' }), mount);
  const scroller = mount.querySelector<HTMLElement>('.vl')!;
  await expect.poll(() => scroller.querySelectorAll('.vl-row').length).toBeGreaterThan(3);
  for (let i = 0; i < 5; i++) await frame();
  // Down at 150 px a frame, each frame's callbacks spending what is left of it (a slow phone: the
  // page is never idle, so nothing waits for idle time to draw the rows ahead).
  scrolling = true;
  for (let i = 0; i < 40; i++) {
    scroller.scrollTop += 150;
    await frame();
    busy(12);
  }
  // Then up, from further down (rows never drawn), where rows added above move the ones below.
  scroller.scrollTop += 20_000;
  for (let i = 0; i < 10; i++) await frame();
  for (let i = 0; i < 40; i++) {
    scroller.scrollTop -= 150;
    await frame();
    busy(12);
  }
  scrolling = false;
  const drawn = [...drawnIn.values()].filter((d) => d.scrolling);
  expect(drawn.length).toBeGreaterThan(40);
  // The first step each way goes into the overscan drawn before; after it, the scroll events find their rows drawn.
  expect(drawn.filter((d) => d.scroll).length).toBeLessThanOrEqual(4);
  // Once still, the rows on screen are real rows, one after another, and cover the viewport.
  await expect
    .poll(() => {
      const view = scroller.getBoundingClientRect();
      const rows = [...scroller.querySelectorAll<HTMLElement>('.vl-row')].filter((el) => {
        const box = el.getBoundingClientRect();
        return box.bottom > view.top && box.top < view.bottom;
      });
      const indices = rows.map((el) => Number(el.dataset.index));
      const inOrder = indices.every((n, k) => k === 0 || n === indices[k - 1] + 1);
      const covered = rows.length > 0 && rows[0].getBoundingClientRect().top <= view.top + 1 && rows.at(-1)!.getBoundingClientRect().bottom >= view.bottom - 1;
      return rows.every((el) => !el.classList.contains('vl-skeleton')) && inOrder && covered;
    })
    .toBe(true);
});

test('the heights just taken move the list without laying it out again: its position is read before the new height is written', async () => {
  // Rows drawn ahead of a scroll are laid out in their task and their heights taken; the list's new
  // total height then went in before the scroll position was read, and the read laid the list out a
  // second time in the same task (the same in each observer report). A read of the position with a
  // height written since the last read of a size or of the position (each lays out what is pending)
  // or the last write of the position (which does too) is counted.
  const host = listHost(true);
  const row = (i: number) => h('div', { style: { padding: '4px' } }, `row ${i} `.repeat(5 + ((i * 7) % 40)));
  const mount = mountIn(host);
  render(h(VirtualList, { count: 2000, version: 1, resetKey: 'k', estimate: 20, scroll: null, render: row, label: 'rows' }), mount);
  const scroller = host.querySelector<HTMLElement>('.vl')!;
  const inner = host.querySelector<HTMLElement>('.vl-inner')!;
  await expect.poll(() => scroller.querySelectorAll('.vl-row').length).toBeGreaterThan(3);
  // The total height as last laid out (by a read of a size or of the position, or a write of the position).
  let laidOut = inner.style.height;
  let mine = false;
  let secondLayouts = 0;
  let heights = 0;
  const patch = (proto: object, name: string, get: (this: unknown) => void, set?: (this: unknown) => void) => {
    const d = Object.getOwnPropertyDescriptor(proto, name)!;
    Object.defineProperty(proto, name, {
      configurable: true,
      get(this: unknown) {
        get.call(this);
        return d.get!.call(this);
      },
      set(this: unknown, v: unknown) {
        set?.call(this);
        d.set!.call(this, v);
      },
    });
    return () => Object.defineProperty(proto, name, d);
  };
  const flushed = () => {
    if (inner.style.height !== laidOut) heights++;
    laidOut = inner.style.height;
  };
  const restore = [
    patch(
      Element.prototype,
      'scrollTop',
      function (this: unknown) {
        // (A scroll event's read comes at the start of a frame, after the layout that followed the observer's report.)
        const inScrollEvent = (window as { event?: Event }).event?.type === 'scroll';
        if (this === scroller && !mine && !inScrollEvent && inner.style.height !== laidOut) secondLayouts++;
        flushed();
      },
      flushed,
    ),
    patch(HTMLElement.prototype, 'offsetHeight', flushed),
    patch(Element.prototype, 'clientHeight', flushed),
  ];
  try {
    // Rows above the top of the screen grow (a picture loads, markdown comes): the list keeps the
    // row on top in place, each time in its observer's report, right after the frame's layout.
    mine = true;
    scroller.scrollTop = 3000;
    mine = false;
    for (let i = 0; i < 10; i++) await frame();
    for (let k = 0; k < 5; k++) {
      mine = true;
      const top = Number(scroller.querySelector<HTMLElement>('.vl-row')!.dataset.index);
      const first = scroller.querySelector<HTMLElement>(`.vl-row[data-index="${top}"] > div`)!;
      mine = false;
      first.style.paddingBottom = `${40 + k * 10}px`;
      for (let i = 0; i < 3; i++) await frame();
    }
  } finally {
    for (const r of restore) r();
  }
  // The list's height changed with each of them.
  expect(heights).toBeGreaterThanOrEqual(5);
  expect(secondLayouts).toBe(0);
});
