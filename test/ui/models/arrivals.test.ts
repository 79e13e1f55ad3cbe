// Change notices in a stream (a sync bringing a library): the list takes the first at once, then holds
// those that follow (new sessions counted, none read) and takes them in together a few seconds later.
import { beforeEach, describe, expect, test } from 'vitest';
import { arrivalGate, arriving, HOLD_MS, STREAM_MS } from '../../../src/ui/models/arrivals.ts';

/** A clock moved by hand, with the timers it runs when moved past them. */
function clock() {
  let t = 10_000;
  const timers: { at: number; fn: () => void }[] = [];
  return {
    now: () => t,
    later: (fn: () => void, ms: number) => timers.push({ at: t + ms, fn }),
    pending: () => timers.map((x) => x.at - t),
    advance(ms: number) {
      const end = t + ms;
      for (;;) {
        const due = timers.filter((x) => x.at <= end).sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        timers.splice(timers.indexOf(due), 1);
        t = due.at;
        due.fn();
      }
      t = end;
    },
  };
}

describe('arrivalGate', () => {
  let taken: string[][];
  let c: ReturnType<typeof clock>;
  let gate: ReturnType<typeof arrivalGate>;
  beforeEach(() => {
    arriving.value = 0;
    taken = [];
    c = clock();
    // Sessions named "known…" are in the list already (a change to them), the rest are new.
    gate = arrivalGate(
      (ids) => taken.push(ids),
      (id) => !id.startsWith('known'),
      c.now,
      c.later,
    );
  });

  test('the first arrivals after a quiet spell go in at once: nothing held, nothing counted', () => {
    expect(gate.hold(['a', 'b'])).toBe(false);
    expect(gate.count()).toBe(0);
    expect(arriving.value).toBe(0);
    expect(c.pending()).toEqual([]);
  });

  test('arrivals that follow within the stream are held and counted, then taken in together once', () => {
    gate.hold(['a']);
    c.advance(400);
    expect(gate.hold(['b', 'c'])).toBe(true);
    c.advance(400);
    expect(gate.hold(['d'])).toBe(true);
    // Named again by a later notice: still one.
    expect(gate.hold(['c'])).toBe(true);
    expect(gate.holds('c')).toBe(true);
    expect(gate.holds('a')).toBe(false);
    expect(gate.count()).toBe(3);
    expect(arriving.value).toBe(3);
    // One step is due, HOLD_MS after the list last took some in.
    expect(c.pending()).toEqual([HOLD_MS - 800]);
    c.advance(HOLD_MS - 801);
    expect(taken).toEqual([]);
    c.advance(1);
    expect(taken).toEqual([['b', 'c', 'd']]);
    expect(gate.count()).toBe(0);
    expect(gate.holds('c')).toBe(false);
  });

  test('a stream that goes on is taken in steps HOLD_MS apart; after a quiet spell arrivals go in at once again', () => {
    gate.hold(['s0']);
    for (let i = 1; i <= 20; i++) {
      c.advance(300);
      expect(gate.hold([`s${i}`])).toBe(true);
    }
    // 20 notices over 6 s: taken in two steps (at 2.5 s and 5 s), the last ones still held.
    expect(taken.map((ids) => ids.length)).toEqual([8, 8]);
    expect(gate.count()).toBe(4);
    c.advance(HOLD_MS);
    expect(taken.flat()).toEqual(Array.from({ length: 20 }, (_, i) => `s${i + 1}`));
    c.advance(STREAM_MS);
    expect(gate.hold(['late'])).toBe(false);
  });

  test('a change to a session the list shows is held with the rest, but only new sessions are counted as arriving', () => {
    gate.hold(['a']);
    expect(gate.hold(['known1', 'b'])).toBe(true);
    expect(gate.holds('known1')).toBe(true);
    expect(arriving.value).toBe(1);
    c.advance(HOLD_MS);
    expect(taken).toEqual([['known1', 'b']]);
  });

  test('clear forgets what is held: its step takes nothing', () => {
    gate.hold(['a']);
    gate.hold(['b']);
    gate.clear();
    expect(arriving.value).toBe(0);
    c.advance(HOLD_MS);
    expect(taken).toEqual([]);
  });
});
