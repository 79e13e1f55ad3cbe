// When sync rounds run, on a hand-driven clock: polls stretch while nothing changes (never past
// MAX_MS), a local change is pushed within PUSH_MS, hidden or offline means no round at all, and a
// failure only the user can fix stops the polls until asked again.
import { describe, expect, test } from 'vitest';
import { HOT_POLLS, LiveSchedule, MAX_MS, MIN_MS, PUSH_MS, type RoundOutcome } from '../../../src/worker/sync/live.ts';

function clock() {
  let t = 0;
  const timers: { at: number; fn: () => void; id: number }[] = [];
  let id = 0;
  return {
    now: () => t,
    timers: {
      set: (fn: () => void, ms: number) => {
        timers.push({ at: t + ms, fn, id: ++id });
        return id;
      },
      clear: (h: unknown) => {
        const i = timers.findIndex((x) => x.id === h);
        if (i >= 0) timers.splice(i, 1);
      },
    },
    pending: () => timers.map((x) => x.at - t),
    /** Runs the next timer (moving the clock to it) and lets its round finish. */
    async next(): Promise<number> {
      timers.sort((a, b) => a.at - b.at);
      const x = timers.shift();
      if (!x) throw new Error('no timer pending');
      const waited = x.at - t;
      t = x.at;
      x.fn();
      for (let i = 0; i < 5; i++) await Promise.resolve();
      return waited;
    },
  };
}

function setup(outcomes: RoundOutcome[] = []) {
  const c = clock();
  let rounds = 0;
  const s = new LiveSchedule(
    async () => {
      rounds++;
      return outcomes.shift() ?? 'quiet';
    },
    c.timers,
    c.now,
  );
  return { c, s, rounds: () => rounds };
}

describe('live sync schedule', () => {
  test('visible: a round at once, then polls that stretch by half while nothing changes, capped at MAX_MS', async () => {
    const { c, s, rounds } = setup();
    s.setEnabled(true);
    s.setPage(true, true);
    expect(await c.next()).toBe(0);
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) waits.push(await c.next());
    expect(waits[0]).toBe(Math.round(MIN_MS * 1.5));
    for (let i = 1; i < waits.length; i++) expect(waits[i]).toBeGreaterThanOrEqual(waits[i - 1]);
    expect(Math.max(...waits)).toBe(MAX_MS);
    expect(s.nextPollMs).toBe(MAX_MS); // what the status shows once the polls have settled
    expect(rounds()).toBe(7);
  });

  test('hidden or offline: no timer at all; visible again: a round at once', async () => {
    const { c, s, rounds } = setup();
    s.setEnabled(true);
    s.setPage(true, true);
    await c.next();
    s.setPage(false, true);
    expect(c.pending()).toEqual([]);
    s.localChange();
    expect(c.pending()).toEqual([]);
    s.setPage(true, false);
    expect(c.pending()).toEqual([]);
    s.setPage(true, true);
    expect(c.pending()).toEqual([0]);
    await c.next();
    expect(rounds()).toBe(2);
  });

  test('a local change is pushed within PUSH_MS, and the polls start again from MIN_MS after a change', async () => {
    const { c, s } = setup(['quiet', 'quiet', 'quiet', 'changed']);
    s.setEnabled(true);
    s.setPage(true, true);
    await c.next();
    await c.next();
    await c.next();
    s.localChange();
    expect(Math.min(...c.pending())).toBe(PUSH_MS);
    expect(await c.next()).toBe(PUSH_MS);
    expect(c.pending()).toEqual([MIN_MS]);
  });

  test('after a change there, the next HOT_POLLS quiet polls wait MIN_MS too, then the polls stretch to MAX_MS again', async () => {
    const { c, s } = setup(['quiet', 'quiet', 'changed']);
    s.setEnabled(true);
    s.setPage(true, true);
    await c.next();
    await c.next();
    expect(c.pending()[0]).toBeGreaterThan(MIN_MS);
    await c.next();
    const waits: number[] = [];
    for (let i = 0; i < HOT_POLLS + 6; i++) waits.push(await c.next());
    expect(waits.slice(0, HOT_POLLS + 1)).toEqual(Array(HOT_POLLS + 1).fill(MIN_MS));
    expect(waits[HOT_POLLS + 1]).toBe(Math.round(MIN_MS * 1.5));
    expect(waits.at(-1)).toBe(MAX_MS);
  });

  test('after a change here, even a push that sent nothing, the polls stay at MIN_MS for HOT_POLLS rounds', async () => {
    const { c, s } = setup();
    s.setEnabled(true);
    s.setPage(true, true);
    await c.next();
    await c.next();
    s.localChange();
    expect(await c.next()).toBe(PUSH_MS);
    const waits: number[] = [];
    for (let i = 0; i < HOT_POLLS + 1; i++) waits.push(await c.next());
    expect(waits).toEqual([...Array(HOT_POLLS).fill(MIN_MS), Math.round(MIN_MS * 1.5)]);
  });

  test('a failure the user must fix stops the polls; asking again resumes; a passing failure backs off', async () => {
    const { c, s } = setup([{ retryable: false }, { retryable: true }, { retryable: true }]);
    s.setEnabled(true);
    s.setPage(true, true);
    await c.next();
    expect(c.pending()).toEqual([]);
    s.kick();
    await c.next();
    const first = c.pending()[0];
    await c.next();
    expect(c.pending()[0]).toBe(first * 2);
  });
});
