// What one task of the reader's virtual list (src/ui/reader/list/VirtualList.tsx) may draw: a worker's
// reply with a page of items draws no new row (the next slice does), and a task that draws rows
// ahead of a reader's scroll holds at most one heavy row, with nothing else.
import { h, render } from 'preact';
import { expect, test } from 'vitest';
import { VirtualList } from '../../../../../src/ui/reader/list/VirtualList.tsx';
import { busy, listMount } from './list-host.ts';

const frame = () => new Promise((r) => requestAnimationFrame(r));

/**
 * The task a row is drawn in: the list's own tasks (slices, rows drawn ahead) and a worker's reply
 * are message events, and a render in their microtasks still sees the event (null elsewhere).
 */
const currentTask = () => ((window as { event?: Event }).event instanceof MessageEvent ? (window as { event?: Event }).event! : null);

test('a page of items the worker sends while rows are still to be drawn: its reply draws none of them', async () => {
  const mount = listMount();
  const drawnIn = new Map<number, Event | null>();
  // Costly rows: a screen of them takes several slices.
  const row = (i: number) => {
    if (!drawnIn.has(i)) {
      drawnIn.set(i, currentTask());
      busy(4);
    }
    return h('div', { style: { height: '40px' } }, `row ${i}`);
  };
  const draw = (version: number) =>
    render(
      h(VirtualList, { count: 500, version, resetKey: 'k', estimate: 40, scroll: { index: 0, align: 'start', seq: 1 }, render: row, label: 'rows' }),
      mount,
    );
  draw(1);
  await expect.poll(() => drawnIn.size).toBeGreaterThan(1);
  // The worker's reply (a message event, as a worker's is): the list's version changes.
  const worker = new MessageChannel();
  let reply: Event | null = null;
  let before = 0;
  worker.port1.onmessage = (event) => {
    reply = event;
    before = drawnIn.size;
    draw(2);
  };
  worker.port2.postMessage(null);
  await expect.poll(() => reply).not.toBeNull();
  // The list goes on drawing the rows it had still to draw (so the reply came while some were waiting)…
  await expect.poll(() => drawnIn.size).toBeGreaterThan(before + 3);
  // …in tasks of its own: none in the reply's.
  expect([...drawnIn.values()].filter((task) => task === reply)).toEqual([]);
  worker.port1.close();
});

test('a reader scrolling through heavy rows: a task that draws rows ahead draws at most one heavy row, and nothing else with it', async () => {
  const mount = listMount();
  const heavy = (i: number) => i % 3 === 0;
  /** Where each row was first drawn, while the reader scrolled. */
  const drawnIn = new Map<number, Event | null>();
  const drawn = new Set<number>();
  let scrolling = false;
  const row = (i: number) => {
    if (!drawn.has(i)) {
      drawn.add(i);
      if (scrolling) drawnIn.set(i, currentTask());
      busy(heavy(i) ? 12 : 0.3);
    }
    return h('div', { style: { padding: '4px' } }, `row ${i} `.repeat(heavy(i) ? 60 : 3));
  };
  render(
    h(VirtualList, {
      count: 2000,
      version: 1,
      resetKey: 'k',
      estimate: 60,
      scroll: null,
      render: row,
      cost: (i: number) => (heavy(i) ? 8 : 0.2),
      label: 'rows',
    }),
    mount,
  );
  const scroller = mount.querySelector<HTMLElement>('.vl')!;
  await expect.poll(() => scroller.querySelectorAll('.vl-row').length).toBeGreaterThan(3);
  for (let i = 0; i < 5; i++) await frame();
  // Down at 150 px a frame with no idle time between frames (a slow phone).
  scrolling = true;
  for (let i = 0; i < 60; i++) {
    scroller.scrollTop += 150;
    await frame();
    busy(12);
  }
  scrolling = false;
  const tasks = new Map<Event, number[]>();
  for (const [i, task] of drawnIn) if (task) tasks.set(task, [...(tasks.get(task) ?? []), i]);
  const withHeavy = [...tasks.values()].filter((rows) => rows.some(heavy));
  expect(withHeavy.length).toBeGreaterThan(5);
  expect(withHeavy.filter((rows) => rows.length > 1)).toEqual([]);
});

test('after a jump, a reader scrolling on at a reading pace gets the real rows while still scrolling, none drawn in a scroll event', async () => {
  const mount = listMount();
  const inScrollEvent = new Set<number>();
  const drawn = new Set<number>();
  const row = (i: number) => {
    if (!drawn.has(i)) {
      drawn.add(i);
      if ((window as { event?: Event }).event?.type === 'scroll') inScrollEvent.add(i);
      busy(2);
    }
    return h('div', { style: { padding: '4px' } }, `row ${i} `.repeat(5 + ((i * 7) % 40)));
  };
  render(h(VirtualList, { count: 2000, version: 1, resetKey: 'k', estimate: 60, scroll: null, render: row, label: 'rows' }), mount);
  const scroller = mount.querySelector<HTMLElement>('.vl')!;
  await expect.poll(() => scroller.querySelectorAll('.vl-row').length).toBeGreaterThan(3);
  for (let i = 0; i < 5; i++) await frame();
  // A jump (a drag of the scrollbar): skeletons.
  scroller.scrollTop += 50_000;
  await frame();
  expect(scroller.querySelector('.vl-skeleton')).not.toBeNull();
  // Then on at 150 px a frame, never still long enough for the skeletons' own turn to end.
  let realWhileScrolling = false;
  for (let i = 0; i < 40 && !realWhileScrolling; i++) {
    scroller.scrollTop += 150;
    await frame();
    busy(12);
    realWhileScrolling = scroller.querySelector('.vl-skeleton') === null && scroller.querySelector('.vl-row') !== null;
  }
  expect(realWhileScrolling).toBe(true);
  expect(inScrollEvent.size).toBe(0);
});
