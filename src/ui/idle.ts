// Work the page does while it has nothing else to do (chunks fetched ahead, reports computed
// ahead), one small step an idle period so a tap never waits behind a long task.
import { postTask } from './markdown/scheduler.ts';

type IdleWindow = { requestIdleCallback?: (fn: () => void, opts?: { timeout: number }) => number };

/** Resolves in the page's next idle period (within `timeout` ms even if it stays busy); Safari, without requestIdleCallback, after a short delay. */
export function whenIdle(timeout = 2000): Promise<void> {
  const idle = (globalThis as IdleWindow).requestIdleCallback;
  return new Promise((resolve) => {
    if (idle) idle(() => resolve(), { timeout });
    else setTimeout(resolve, 200);
  });
}

/** Runs each step in an idle period of its own, in order. */
export async function runWhenIdle(steps: Iterable<() => unknown>, timeout = 2000): Promise<void> {
  for (const step of steps) {
    await whenIdle(timeout);
    step();
  }
}

let post: ((fn: () => void) => void) | null = null;

/** Resolves in a new task, after the events already queued (what follows runs apart from the task that called). */
export function nextTask(): Promise<void> {
  post ??= postTask();
  const queue = post;
  return new Promise((resolve) => queue(resolve));
}
