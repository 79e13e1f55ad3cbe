import type { WorkerEnv } from './env.ts';

/** The reader half of the worker API: open a session, windows of rendered items, context, stats. */
export function createReaderApi(_env: WorkerEnv) {
  return {};
}
