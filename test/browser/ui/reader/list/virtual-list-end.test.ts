// The reader's virtual list (src/ui/reader/list/VirtualList.tsx) in Chromium, scrolled by a script
// (or a flick of the scrollbar) down to its end while its rows are still estimates: the rows turn
// out taller when drawn, and the list stays at its end, the last row's bottom at the viewport's.
import { h, render } from 'preact';
import { expect, test } from 'vitest';
import { VirtualList } from '../../../../../src/ui/reader/list/VirtualList.tsx';
import { listHost, mountIn } from './list-host.ts';

/** Resolves after the next `frames` animation frames. */
const frames = (n: number) => new Promise<void>((done) => (n <= 0 ? done() : requestAnimationFrame(() => frames(n - 1).then(done))));

test('scrolled to its end, the list stays there when the rows drawn are taller than their estimate', async () => {
  const host = listHost(true);
  const mount = mountIn(host);
  const count = 400;
  // Rows far taller than the estimate, and of differing heights, as real messages are.
  const row = (i: number) => h('div', { style: { height: `${200 + (i % 7) * 40}px` } }, `row ${i}`);
  render(h(VirtualList, { count, version: 1, resetKey: 'k', estimate: 60, render: row, label: 'rows' }), mount);
  const scroller = mount.querySelector<HTMLElement>('.vl')!;
  await expect.poll(() => scroller.querySelector('.vl-row[data-index="0"]') !== null).toBe(true);
  // As test/e2e/real-files.spec.ts does: the scroll position set once to the height the list has now.
  scroller.scrollTop = scroller.scrollHeight;
  const gap = () => {
    const last = scroller.querySelector<HTMLElement>(`.vl-row[data-index="${count - 1}"]`);
    return last ? Math.round(scroller.getBoundingClientRect().bottom - last.getBoundingClientRect().bottom) : null;
  };
  // The rows near the end are drawn and measured (some 4 times their estimate), and the list settles.
  await expect.poll(gap).toBe(0);
  const height = scroller.scrollHeight;
  await frames(5);
  expect(scroller.scrollHeight).toBe(height);
  expect(gap()).toBe(0);
  // Still a list the reader can scroll: up a screen, the last row is below the viewport.
  scroller.scrollTop -= scroller.clientHeight;
  await expect.poll(() => (gap() ?? -1) < 0 || gap() === null).toBe(true);
});
