// Change notices from elsewhere in a stream (a sync bringing a library, another tab importing
// hundreds): the list takes them in a few steps, not at every notice. Between steps the list holds
// still, a count says how many new sessions are on their way, and nothing is read from the worker
// for the sessions held until they are taken in.
import { signal } from '@preact/signals';

/** New sessions stored here, named by change notices, not yet in the list (shown as a count over it). */
export const arriving = signal(0);

/** Notices this soon after the list last took some in are part of a stream: held. */
export const STREAM_MS = 1500;
/** Held sessions are taken in at most this long after the list last took some in. */
export const HOLD_MS = 2500;

export interface ArrivalGate {
  /**
   * Whether `ids` (named by a notice) are held back: true while a stream goes on (they are handed
   * to `take` in the next step, those the list lacks counted in `arriving`); false when they are
   * the first after a quiet spell (the caller reads them at once).
   */
  hold(ids: readonly string[]): boolean;
  /** Whether `id` is held (a notice naming it again changes nothing). */
  holds(id: string): boolean;
  /** How many held sessions the list lacks. */
  count(): number;
  /** Forgets what is held (the whole list is read again: it holds them). */
  clear(): void;
}

/**
 * A gate over the notices: the first after a quiet spell go in at once; those that follow within
 * `STREAM_MS` are held and given to `take` together, `HOLD_MS` after the list last took some in.
 * `isNew` tells a session the list lacks (counted) from one it shows (changed).
 */
export function arrivalGate(
  take: (ids: string[]) => void,
  isNew: (id: string) => boolean,
  now: () => number = () => performance.now(),
  later: (fn: () => void, ms: number) => unknown = (fn, ms) => setTimeout(fn, ms),
): ArrivalGate {
  const held = new Set<string>();
  let fresh = 0;
  let lastTaken = Number.NEGATIVE_INFINITY;
  let timer: unknown = null;
  let generation = 0;
  const release = (gen: number) => {
    timer = null;
    if (gen !== generation || !held.size) return;
    const ids = [...held];
    held.clear();
    fresh = 0;
    lastTaken = now();
    take(ids);
  };
  return {
    hold(ids) {
      const t = now();
      if (!held.size && t - lastTaken >= STREAM_MS) {
        lastTaken = t;
        return false;
      }
      for (const id of ids)
        if (!held.has(id)) {
          held.add(id);
          if (isNew(id)) fresh++;
        }
      arriving.value = fresh;
      if (timer === null) {
        const gen = generation;
        timer = later(() => release(gen), Math.max(0, lastTaken + HOLD_MS - t));
      }
      return true;
    },
    holds: (id) => held.has(id),
    count: () => fresh,
    clear() {
      held.clear();
      fresh = 0;
      generation++;
      timer = null;
      arriving.value = 0;
    },
  };
}
