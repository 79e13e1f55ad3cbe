// The reader's virtual list (src/ui/reader/VirtualList.tsx) while a reader scrolls: the rows it is
// heading for are drawn in a task after each frame, so the scroll event that brings them on screen
// finds them built; when the scrolling stops, every row on screen is drawn, in order.
import { h, render } from 'preact';
import { afterEach, expect, test } from 'vitest';
import { VirtualList } from '../../src/ui/reader/VirtualList.tsx';

const hosts: HTMLElement[] = [];
afterEach(() => {
  for (const host of hosts.splice(0)) {
    render(null, host);
    host.remove();
  }
});

/** Spends `ms` of main-thread time. */
function busy(ms: number) {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    /* work */
  }
}

const frame = () => new Promise((r) => requestAnimationFrame(r));

test('a reader scrolling with no idle time between frames finds the rows ahead drawn, not drawn in the scroll event', async () => {
  const host = document.createElement('div');
  host.style.cssText = 'height: 600px; width: 400px; display: flex; flex-direction: column';
  document.body.append(host);
  hosts.push(host);
  const css = document.createElement('style');
  css.textContent = '.vl { flex: 1; overflow-y: auto; min-height: 0 } .vl-inner { position: relative } .vl-window { position: absolute; inset: 0 0 auto 0 }';
  host.append(css);
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
  const mount = document.createElement('div');
  mount.style.cssText = 'flex: 1; display: flex; flex-direction: column; min-height: 0';
  host.append(mount);
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
