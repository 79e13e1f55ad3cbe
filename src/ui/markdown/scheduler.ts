/**
 * Work cut into slices that each stay under a time budget, the most urgent first: the page asks
 * for many small jobs (insert one row's markdown) and the scheduler runs them in tasks of at most
 * `budgetMs`, yielding between tasks so the browser can scroll and paint. Whatever the content,
 * no task it runs takes much longer than the budget plus one job.
 */

/** One piece of work. */
export interface SliceJob {
  /** Smaller runs first; null while the job cannot run yet (its data is on the way). Asked once per pass. */
  rank(): number | null;
  /** Does the work. Runs once; the job is forgotten after. */
  run(): void;
}

/** How the scheduler reads the clock and gets a new task (injectable for tests). */
export interface SchedulerOptions {
  /** Time spent per task before yielding. */
  budgetMs: number;
  /** Time a synchronous caller may spend through `runNow` before the current task yields. */
  inlineBudgetMs?: number;
  now?: () => number;
  /** Runs `fn` in a later task. */
  post?: (fn: () => void) => void;
  /** Runs `fn` after the current synchronous work (resets the inline budget). */
  afterSync?: (fn: () => void) => void;
  /**
   * Called at the end of a task that ran jobs (e.g. to lay out what they changed there, not in the
   * next frame). Its time counts against the budget: the jobs of the next tasks get the share of
   * the budget that their own run took of the last passes (smoothed), so a pass whose jobs cost
   * ten times their run in layout runs fewer of them.
   */
  afterPass?: () => void;
}

/** A `post` that queues a task without setTimeout's clamping (MessageChannel). */
export function postTask(): (fn: () => void) => void {
  if (typeof MessageChannel !== 'function') return (fn) => setTimeout(fn, 0);
  const channel = new MessageChannel();
  const queue: Array<() => void> = [];
  channel.port1.onmessage = () => queue.shift()?.();
  return (fn) => {
    queue.push(fn);
    channel.port2.postMessage(null);
  };
}

/** A time-sliced job queue (see the file's comment). */
export function createSliceScheduler(options: SchedulerOptions) {
  const { budgetMs, inlineBudgetMs = 0 } = options;
  const now = options.now ?? (() => performance.now());
  const post = options.post ?? postTask();
  const afterSync = options.afterSync ?? queueMicrotask;
  const jobs = new Set<SliceJob>();
  let posted = false;
  let inlineSpent = 0;
  let inlineReset = false;
  /** The jobs' own share of a pass's time (their run against their run plus afterPass), smoothed. */
  let share = 1;

  function schedule() {
    if (posted || jobs.size === 0) return;
    posted = true;
    post(pass);
  }

  /** One task: rank the jobs that can run, run the most urgent until the budget is spent. */
  function pass() {
    posted = false;
    const start = now();
    const ready: Array<{ job: SliceJob; rank: number }> = [];
    for (const job of jobs) {
      const rank = job.rank();
      if (rank !== null) ready.push({ job, rank });
    }
    ready.sort((a, b) => a.rank - b.rank);
    let ran = 0;
    const budget = budgetMs * share;
    for (const { job } of ready) {
      // At least one job per pass, so a job over the budget still makes progress.
      if (ran > 0 && now() - start >= budget) break;
      jobs.delete(job);
      ran++;
      try {
        job.run();
      } catch (e) {
        reportError(e);
      }
    }
    if (ran > 0 && options.afterPass) {
      const ranFor = now() - start;
      options.afterPass();
      const total = now() - start;
      if (total > 0) share = Math.min(1, Math.max(0.05, share * 0.5 + (ranFor / total) * 0.5));
    }
    if (ran < ready.length) schedule();
  }

  return {
    /** Queues a job. */
    add(job: SliceJob): void {
      jobs.add(job);
      schedule();
    },
    /** Forgets a job that has not run yet. */
    cancel(job: SliceJob): void {
      jobs.delete(job);
    },
    /**
     * Runs a job the caller knows is ready at once when this stretch of synchronous work still has
     * inline budget left (so what is already at hand appears in the same frame); else queues it.
     * True when it ran.
     */
    runNow(job: SliceJob): boolean {
      if (inlineSpent >= inlineBudgetMs) {
        jobs.add(job);
        schedule();
        return false;
      }
      if (!inlineReset) {
        inlineReset = true;
        afterSync(() => {
          inlineReset = false;
          inlineSpent = 0;
        });
      }
      const start = now();
      try {
        job.run();
      } finally {
        inlineSpent += now() - start;
      }
      return true;
    },
    /** Some waiting job may have become ready: run a pass soon. */
    wake(): void {
      schedule();
    },
    /** Jobs waiting (for tests and diagnostics). */
    get size(): number {
      return jobs.size;
    },
  };
}

/** The type of a scheduler. */
export type SliceScheduler = ReturnType<typeof createSliceScheduler>;

function reportError(e: unknown) {
  // A failing job must not stop the others; the error still reaches the console and error handlers.
  setTimeout(() => {
    throw e;
  }, 0);
}
