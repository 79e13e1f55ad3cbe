// One writer per session across tabs: Web Locks where the platform has them (browsers, workers),
// an in-process queue elsewhere (Node tests). Web Locks are not re-entrant: take a lock once, at the
// outermost call (the worker API), never inside the store.

const queues = new Map<string, Promise<unknown>>();

/**
 * Runs `fn` while holding the lock `name` (exclusive, or shared for readers). An abort while
 * waiting for the lock (another tab is writing) gives up the wait: the call rejects at once.
 */
export async function withLock<T>(name: string, fn: () => Promise<T>, mode: 'exclusive' | 'shared' = 'exclusive', signal?: AbortSignal): Promise<T> {
  signal?.throwIfAborted();
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (locks) return locks.request(name, signal ? { mode, signal } : { mode }, fn) as Promise<T>;
  const previous = queues.get(name) ?? Promise.resolve();
  const start = () => {
    signal?.throwIfAborted();
    return fn();
  };
  const run = previous.then(start, start);
  const tail = run.catch(() => undefined);
  queues.set(name, tail);
  try {
    return await run;
  } finally {
    if (queues.get(name) === tail) queues.delete(name);
  }
}

/**
 * Runs `fn` holding the lock `name` if it is free, or becomes free within `waitMs` (another worker
 * settling it quickly); returns false, without running `fn`, when it stays taken (a long live
 * writer, or this worker itself mid-call).
 */
export async function withLockIfFree(name: string, fn: () => Promise<void>, waitMs = 0): Promise<boolean> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (locks) {
    if (waitMs > 0) {
      try {
        await locks.request(name, { signal: AbortSignal.timeout(waitMs) }, fn);
        return true;
      } catch (e) {
        if ((e as DOMException)?.name === 'TimeoutError' || (e as DOMException)?.name === 'AbortError') return false;
        throw e;
      }
    }
    return locks.request(name, { ifAvailable: true }, async (lock) => {
      if (!lock) return false;
      await fn();
      return true;
    }) as Promise<boolean>;
  }
  if (queues.has(name)) return false;
  await withLock(name, fn);
  return true;
}
