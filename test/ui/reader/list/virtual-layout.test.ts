// The virtual list's range arithmetic (src/ui/reader/list/virtual-layout.ts): what a scroll event
// renders, and what the task after the frame draws ahead of a reader's scroll.
import { describe, expect, test } from 'vitest';
import { aheadRange, anchorAt, growSpan, planRange, type Range, placeOf } from '../../../../src/ui/reader/list/virtual-layout.ts';

/** Offsets of `count` rows of 100 px. */
function rows(count: number): Float64Array {
  const o = new Float64Array(count + 1);
  for (let i = 0; i <= count; i++) o[i] = i * 100;
  return o;
}
const o = rows(1000);
const at = (top: number, step: number, scrolling = true) => ({ top, view: 600, overscan: 500, scrolling, step });

describe('planRange', () => {
  test('a reader’s step keeps every row rendered and adds the visible ones', () => {
    // Rows 40–60 rendered; the screen moves from 4,500 to 4,750 (rows 47–54 visible).
    const r: Range = { start: 40, end: 60, fast: false };
    const plan = planRange(o, 1000, r, at(4750, 250));
    expect(plan.reading).toBe(true);
    expect(plan.range).toEqual({ start: 40, end: 60, fast: false });
    expect(plan.first).toBe(47);
  });

  test('a step the length of the screen or more is no reader’s: rows beyond the overscan go', () => {
    const r: Range = { start: 30, end: 60, fast: false };
    const plan = planRange(o, 1000, r, at(4000, 700));
    expect(plan.reading).toBe(false);
    // The overscan reaches from 3,500 (row 35) to 5,100 (row 51).
    expect(plan.range).toEqual({ start: 35, end: 52, fast: false });
  });

  test('a user’s jump past everything rendered draws skeletons of the visible rows', () => {
    const r: Range = { start: 40, end: 60, fast: false };
    expect(planRange(o, 1000, r, at(50_000, 45_000)).range).toEqual({ start: 500, end: 507, fast: true });
    // The list's own settle (not scrolling) draws the real rows there.
    expect(planRange(o, 1000, r, at(50_000, 0, false)).range).toEqual({ start: 500, end: 507, fast: false });
  });
});

describe('aheadRange', () => {
  test('down: rows to the overscan’s edge below are added; above, those beyond it go once past twice the overscan', () => {
    // Screen at 4,750: the overscan reaches from 4,250 (row 42) to 5,850 (row 58); twice it, from 3,750 (row 37).
    const down = { top: 4750, view: 600, overscan: 500, upward: false };
    expect(aheadRange(o, 1000, { start: 40, end: 56, fast: false }, down)).toEqual({ start: 40, end: 59, fast: false });
    expect(aheadRange(o, 1000, { start: 36, end: 56, fast: false }, down)).toEqual({ start: 42, end: 59, fast: false });
  });

  test('up: rows to the overscan’s edge above are added; below, those beyond it go once past twice the overscan', () => {
    // Twice the overscan below reaches 6,350 (row 63).
    const up = { top: 4750, view: 600, overscan: 500, upward: true };
    expect(aheadRange(o, 1000, { start: 45, end: 62, fast: false }, up)).toEqual({ start: 42, end: 62, fast: false });
    expect(aheadRange(o, 1000, { start: 45, end: 65, fast: false }, up)).toEqual({ start: 42, end: 59, fast: false });
  });

  test('nothing to change, skeletons, or no rows: null', () => {
    const opts = { top: 4750, view: 600, overscan: 500, upward: false };
    expect(aheadRange(o, 1000, { start: 42, end: 59, fast: false }, opts)).toBeNull();
    expect(aheadRange(o, 1000, { start: 47, end: 54, fast: true }, opts)).toBeNull();
    expect(aheadRange(o, 1000, { start: 0, end: 0, fast: false }, opts)).toBeNull();
  });

  test('a range outside the overscan is left to the scroll event, not grown from afar', () => {
    expect(aheadRange(o, 1000, { start: 10, end: 12, fast: false }, { top: 4750, view: 600, overscan: 500, upward: false })).toBeNull();
    // Past twice the overscan, what is behind goes, but for the rows still inside it.
    expect(aheadRange(o, 1000, { start: 30, end: 43, fast: false }, { top: 4750, view: 600, overscan: 500, upward: false })).toEqual({
      start: 42,
      end: 59,
      fast: false,
    });
  });
});

test('placeOf: the pinned item at the top or its bottom at the bottom, else the anchor item, always within the list', () => {
  const o = new Float64Array([0, 100, 300, 600, 1000]);
  expect(placeOf(o, 4, 200, { index: 2, align: 'start' }, { index: 0, delta: 0 })).toBe(300);
  expect(placeOf(o, 4, 200, { index: 1, align: 'end' }, { index: 0, delta: 0 })).toBe(100);
  expect(placeOf(o, 4, 200, null, { index: 1, delta: 30 })).toBe(130);
  expect(placeOf(o, 4, 200, null, { index: 3, delta: 300 })).toBe(800);
  expect(placeOf(o, 4, 200, { index: 9, align: 'start' }, { index: 0, delta: 0 })).toBe(600);
});

test('anchorAt / placeOf: a position at the list’s end holds to the end while the rows stay the same, else to its first row', () => {
  const o = new Float64Array([0, 100, 300, 600, 1000]);
  // 800 + 200 = 1000: at the end. The rows measured taller (the end now at 1400): still at the end.
  const end = anchorAt(o, 4, 800, 200, 3);
  expect(end).toEqual({ index: 3, delta: 200, endOf: 4 });
  const taller = new Float64Array([0, 100, 300, 600, 1400]);
  expect(placeOf(taller, 4, 200, null, end)).toBe(1200);
  // More rows since (a page of rows added below): the first row's place holds, not the new end.
  const more = new Float64Array([0, 100, 300, 600, 1000, 1500]);
  expect(placeOf(more, 5, 200, null, end)).toBe(800);
  // Not at the end, or at the top of a list shorter than the view: the first row on screen holds.
  expect(anchorAt(o, 4, 700, 200, 3)).toEqual({ index: 3, delta: 100, endOf: -1 });
  expect(anchorAt(new Float64Array([0, 50]), 1, 0, 200, 0)).toEqual({ index: 0, delta: 0, endOf: -1 });
  expect(placeOf(taller, 4, 200, null, anchorAt(o, 4, 700, 200, 3))).toBe(700);
});

describe('growSpan', () => {
  const span = { a: 10, b: 12, reseed: false };
  const grow = (budget: number, costOf?: (i: number) => number) => growSpan(span, { start: 0, end: 100, seed: 11, budget, upFirst: false, costOf });

  test('rows of one cost each: as many as the budget holds, at least one, none for no budget', () => {
    expect(grow(3)).toEqual({ a: 10, b: 15, added: 3, cost: 3 });
    expect(grow(0.2)).toEqual({ a: 10, b: 13, added: 1, cost: 1 });
    expect(grow(0)).toEqual({ a: 10, b: 12, added: 0, cost: 0 });
  });

  test('by cost: light rows fill the budget; a heavy row (half the budget or more) comes first in a task, and alone', () => {
    // Rows 12–14 light (0.5), 15 heavy (6), then light again.
    const costOf = (i: number) => (i === 15 ? 6 : 0.5);
    expect(grow(10, costOf)).toEqual({ a: 10, b: 15, added: 3, cost: 1.5 });
    expect(growSpan({ a: 10, b: 15, reseed: false }, { start: 0, end: 100, seed: 11, budget: 10, upFirst: false, costOf })).toEqual({
      a: 10,
      b: 16,
      added: 1,
      cost: 6,
    });
    // A row dearer than the whole budget is still drawn, alone.
    expect(growSpan({ a: 10, b: 15, reseed: false }, { start: 0, end: 100, seed: 11, budget: 2, upFirst: false, costOf })).toEqual({
      a: 10,
      b: 16,
      added: 1,
      cost: 6,
    });
  });
});
