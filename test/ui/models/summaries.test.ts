// The library's refreshes while sessions stream in: unchanged sessions keep their summary objects
// (so their cards are not drawn again), and a stream of change notices becomes spaced refreshes.
import { describe, expect, test } from 'vitest';
import type { SessionSummary } from '../../../src/ui/models/calls.ts';
import { coalesced, keepUnchanged, mergeChanges, mergeKnown, unknownIds } from '../../../src/ui/models/summaries.ts';

function summary(id: string, over: Partial<SessionSummary> = {}): SessionSummary {
  return {
    id,
    path: `sessions/${id}.jsonl`,
    title: `Session ${id}`,
    firstMessage: 'hello',
    cwd: '/home/test/project',
    created: '2026-11-29T10:00:00.000Z',
    modified: 1000,
    date: 1000,
    size: 500,
    entryCount: 3,
    branchCount: 1,
    model: null,
    totals: { cost: 0, tokens: 0 } as SessionSummary['totals'],
    usage: [] as unknown as SessionSummary['usage'],
    problems: 0,
    ...over,
  };
}

describe('keepUnchanged', () => {
  test('a summary equal to the one before is the object before; a changed or new one is the fresh object', () => {
    const before = [summary('a'), summary('b'), summary('c')];
    const fresh = [summary('n'), summary('a'), summary('b', { size: 600, modified: 2000 }), summary('c', { parentOf: 'a' })];
    const after = keepUnchanged(before, fresh);
    expect(after.map((s) => s.id)).toEqual(['n', 'a', 'b', 'c']);
    expect(after[0]).toBe(fresh[0]);
    expect(after[1]).toBe(before[0]);
    expect(after[2]).toBe(fresh[2]);
    expect(after[3]).toBe(fresh[3]);
  });

  test('a renamed session, a new subagent link or a field that appears is a change', () => {
    const before = [summary('a'), summary('b', { subagent: { name: 'x' } as SessionSummary['subagent'] }), summary('c')];
    const fresh = [
      summary('a', { title: 'Renamed' }),
      summary('b', { subagent: { name: 'y' } as SessionSummary['subagent'] }),
      summary('c', { variantOf: 'a' }),
    ];
    const after = keepUnchanged(before, fresh);
    after.forEach((s, i) => expect(s).toBe(fresh[i]));
  });

  test('a same subagent link (another object) keeps the summary', () => {
    const before = [summary('b', { subagent: { name: 'x' } as SessionSummary['subagent'] })];
    expect(keepUnchanged(before, [summary('b', { subagent: { name: 'x' } as SessionSummary['subagent'] })])[0]).toBe(before[0]);
  });
});

describe('mergeChanges', () => {
  test('the list follows the order given: changed sessions are the fresh objects, the others keep theirs, a gone one leaves', () => {
    const before = [summary('a'), summary('b'), summary('c')];
    const changes = { changed: [summary('n'), summary('b', { size: 900, modified: 3000 })], order: ['b', 'n', 'a'] };
    const after = mergeChanges(before, changes);
    expect(after?.map((s) => s.id)).toEqual(['b', 'n', 'a']);
    expect(after?.[0]).toBe(changes.changed[1]);
    expect(after?.[1]).toBe(changes.changed[0]);
    expect(after?.[2]).toBe(before[0]);
  });

  test('a named session whose summary is the same keeps its object; nothing moved nor changed gives the same list', () => {
    const before = [summary('a'), summary('b')];
    expect(mergeChanges(before, { changed: [summary('b')], order: ['a', 'b'] })).toBe(before);
    const moved = mergeChanges(before, { changed: [summary('b')], order: ['b', 'a'] });
    expect(moved).toEqual([before[1], before[0]]);
    expect(moved?.[0]).toBe(before[1]);
  });

  test('a session in the order that is neither named nor known here (a missed notice) asks for the whole list', () => {
    expect(mergeChanges([summary('a')], { changed: [], order: ['x', 'a'] })).toBeNull();
  });
});

describe('coalesced', () => {
  function clock() {
    let t = 0;
    const timers: { at: number; fn: () => void }[] = [];
    return {
      now: () => t,
      set: (fn: () => void, ms: number) => timers.push({ at: t + ms, fn }),
      advance(ms: number) {
        t += ms;
        for (const x of timers.filter((x) => x.at <= t)) {
          timers.splice(timers.indexOf(x), 1);
          x.fn();
        }
      },
    };
  }

  test('the first notice runs at once; those within the gap run once, at its end; after a quiet gap, at once again', () => {
    const c = clock();
    const runs: number[] = [];
    const notice = coalesced(400, () => runs.push(c.now()), c.now, c.set);
    notice();
    expect(runs).toEqual([0]);
    for (let i = 0; i < 10; i++) {
      c.advance(30);
      notice();
    }
    expect(runs).toEqual([0]);
    c.advance(100);
    expect(runs).toEqual([0, 400]);
    c.advance(1000);
    notice();
    expect(runs).toEqual([0, 400, 1400]);
  });
});

describe('unknownIds', () => {
  test('names the ids of the order that are neither here nor among the changed summaries, in order', () => {
    const before = [summary('a'), summary('b')];
    const answer = { changed: [summary('c')], order: ['d', 'c', 'a', 'e', 'b'] };
    // The merge cannot place d and e: they are what a second, small ask reads.
    expect(mergeChanges(before, answer)).toBeNull();
    expect(unknownIds(before, answer)).toEqual(['d', 'e']);
    const merged = mergeChanges(before, { changed: [summary('c'), summary('d'), summary('e')], order: answer.order });
    expect(merged?.map((s) => s.id)).toEqual(['d', 'c', 'a', 'e', 'b']);
    expect(merged?.[2]).toBe(before[0]);
  });

  test('none when every id of the order is known', () => {
    expect(unknownIds([summary('a')], { changed: [summary('b')], order: ['b', 'a'] })).toEqual([]);
  });
});

describe('mergeKnown', () => {
  test('places what it can in the order given and leaves out ids neither here nor changed', () => {
    const before = [summary('a'), summary('b')];
    const merged = mergeKnown(before, { changed: [summary('c')], order: ['d', 'c', 'a', 'e', 'b'] });
    expect(merged.map((s) => s.id)).toEqual(['c', 'a', 'b']);
    expect(merged[1]).toBe(before[0]);
  });

  test('the same array when nothing it can place moved or changed', () => {
    const before = [summary('a'), summary('b')];
    expect(mergeKnown(before, { changed: [], order: ['x', 'a', 'b'] })).toBe(before);
  });
});
