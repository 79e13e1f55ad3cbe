// Sessions arriving from elsewhere in a stream (a sync bringing a library, another tab importing
// hundreds): the list takes them in a few steps, not at every change notice. Between steps the list
// holds still and a count says how many are on their way; nothing is read from the worker for them
// until they are taken in.
import { signal } from '@preact/signals';

/** Sessions stored here, named by change notices, not yet in the list (shown as a count beside it). */
export const arriving = signal(0);

/** Arrivals this soon after the list last took some in are part of a stream: held. */
export const STREAM_MS = 1500;
/** Held arrivals are taken in at most this long after the list last took some in. */
export const HOLD_MS = 2500;

export interface ArrivalGate {
  /**
   * Of `fresh` (ids the list does not hold yet, named by a notice), whether they are held back: true
   * while a stream goes on (they are counted, and handed to `take` in the next step); false when they
   * are the first after a quiet spell (the caller takes them in at once).
   */
  hold(fresh: readonly string[]): boolean;
  /** Whether `id` is held (a notice naming it again changes nothing). */
  holds(id: string): boolean;
  /** How many are held. */
  count(): number;
  /** Forgets what is held (the whole list is read again: it holds them). */
  clear(): void;
}

/**
 * A gate over the arrivals: the first after a quiet spell go in at once; those that follow within
 * `STREAM_MS` are held and given to `take` together, `HOLD_MS` after the list last took some in.
 */
export function arrivalGate(
  take: (ids: string[]) => void,
  now: () => number = () => performance.now(),
  later: (fn: () => void, ms: number) => unknown = (fn, ms) => setTimeout(fn, ms),
): ArrivalGate {
  const held = new Set<string>();
  let lastTaken = Number.NEGATIVE_INFINITY;
  let timer: unknown = null;
  let generation = 0;
  const release = (gen: number) => {
    timer = null;
    if (gen !== generation || !held.size) return;
    const ids = [...held];
    held.clear();
    lastTaken = now();
    take(ids);
  };
  return {
    hold(fresh) {
      const t = now();
      if (!held.size && t - lastTaken >= STREAM_MS) {
        lastTaken = t;
        return false;
      }
      for (const id of fresh) held.add(id);
      arriving.value = held.size;
      if (timer === null) {
        const gen = generation;
        timer = later(() => release(gen), Math.max(0, lastTaken + HOLD_MS - t));
      }
      return true;
    },
    holds: (id) => held.has(id),
    count: () => held.size,
    clear() {
      held.clear();
      generation++;
      timer = null;
      arriving.value = 0;
    },
  };
}
