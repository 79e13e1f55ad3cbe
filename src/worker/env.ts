import type { SessionStore } from '../storage/types.ts';

/** What the worker API is built from: a store, a clock and an id source (swapped in tests). */
export interface WorkerEnv {
  store: SessionStore;
  now(): Date;
  /** 8 lowercase hex characters. */
  randomId(): string;
}
