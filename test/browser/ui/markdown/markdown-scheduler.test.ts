// The markdown upgrade's slice scheduler (scheduler.ts), driven with a fake clock and hand-run tasks.
import { describe, expect, test } from 'vitest';
import { createSliceScheduler, type SliceJob } from '../../../../src/ui/markdown/scheduler.ts';

describe('the slice scheduler', () => {
  function fakeScheduler(budgetMs = 8, inlineBudgetMs = 0, afterPassMs = 0) {
    let clock = 0;
    const tasks: Array<() => void> = [];
    const sync: Array<() => void> = [];
    const afterPass = afterPassMs > 0 ? () => void (clock += afterPassMs) : undefined;
    const scheduler = createSliceScheduler({
      budgetMs,
      inlineBudgetMs,
      now: () => clock,
      post: (fn) => tasks.push(fn),
      afterSync: (fn) => sync.push(fn),
      afterPass,
    });
    const ran: string[] = [];
    const job = (name: string, rank: number | null, cost: number): SliceJob & { rankValue: number | null } => {
      const j = {
        rankValue: rank,
        rank: () => j.rankValue,
        run: () => {
          clock += cost;
          ran.push(name);
        },
      };
      return j;
    };
    const runTask = () => tasks.shift()?.();
    return {
      scheduler,
      job,
      ran,
      tasks,
      sync,
      runTask,
      advance: (ms: number) => {
        clock += ms;
      },
    };
  }

  test('each task stops once the budget is spent, most urgent first; the rest goes to later tasks', () => {
    const { scheduler, job, ran, tasks, runTask } = fakeScheduler(8);
    for (const [name, rank] of [
      ['far', 900],
      ['near', 0],
      ['mid', 300],
      ['farther', 2000],
      ['close', 10],
    ] as const)
      scheduler.add(job(name, rank, 3));
    expect(tasks).toHaveLength(1);
    expect(ran).toEqual([]);
    runTask();
    // 3 + 3 + 3 ms: the third job crosses 8 ms, then the task yields.
    expect(ran).toEqual(['near', 'close', 'mid']);
    expect(tasks).toHaveLength(1);
    runTask();
    expect(ran).toEqual(['near', 'close', 'mid', 'far', 'farther']);
    expect(tasks).toHaveLength(0);
    expect(scheduler.size).toBe(0);
  });

  test("the time a pass's afterPass takes counts against the budget: the next passes run fewer jobs", () => {
    // Every pass's afterPass (its layout) takes 9 ms, three times what three 1 ms jobs ran for.
    const { scheduler, job, ran, runTask } = fakeScheduler(4, 0, 9);
    for (let i = 0; i < 20; i++) scheduler.add(job(`j${i}`, i, 1));
    const perPass: number[] = [];
    for (let pass = 0; pass < 4; pass++) {
      const before = ran.length;
      runTask();
      perPass.push(ran.length - before);
    }
    // First pass: the whole 4 ms on jobs; then a budget cut to the jobs' share of the pass.
    expect(perPass[0]).toBe(4);
    expect(perPass[1]).toBeLessThan(4);
    expect(perPass[3]).toBeLessThanOrEqual(perPass[1]);
    expect(perPass[3]).toBeGreaterThanOrEqual(1);
    expect(ran.slice(0, 4)).toEqual(['j0', 'j1', 'j2', 'j3']);
  });

  test('a job over the budget still runs (alone); ranks are read again in every task', () => {
    const { scheduler, job, ran, runTask } = fakeScheduler(8);
    const big = job('big', 5, 50);
    const small = job('small', 1, 1);
    scheduler.add(big);
    scheduler.add(small);
    small.rankValue = 10;
    runTask();
    expect(ran).toEqual(['big']);
    runTask();
    expect(ran).toEqual(['big', 'small']);
  });

  test('a job not ready waits without spinning until woken; a cancelled job never runs', () => {
    const { scheduler, job, ran, tasks, runTask } = fakeScheduler(8);
    const waiting = job('waiting', null, 1);
    const cancelled = job('cancelled', 0, 1);
    scheduler.add(waiting);
    scheduler.add(cancelled);
    scheduler.cancel(cancelled);
    runTask();
    expect(ran).toEqual([]);
    expect(tasks).toHaveLength(0);
    waiting.rankValue = 3;
    scheduler.wake();
    runTask();
    expect(ran).toEqual(['waiting']);
  });

  test('runNow runs at once within the inline budget of one stretch of synchronous work, then queues', () => {
    const { scheduler, job, ran, tasks, sync, runTask } = fakeScheduler(8, 4);
    expect(scheduler.runNow(job('a', 0, 3))).toBe(true);
    expect(scheduler.runNow(job('b', 0, 3))).toBe(true);
    // 6 ms spent inline: the next one waits for a task.
    expect(scheduler.runNow(job('c', 0, 3))).toBe(false);
    expect(ran).toEqual(['a', 'b']);
    expect(tasks).toHaveLength(1);
    // The synchronous stretch ends: the inline budget is back.
    sync.shift()!();
    expect(scheduler.runNow(job('d', 0, 1))).toBe(true);
    runTask();
    expect(ran).toEqual(['a', 'b', 'd', 'c']);
  });
});
