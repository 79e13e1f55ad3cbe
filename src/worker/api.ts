import type { WorkerEnv } from './env.ts';
import { createLibraryApi } from './library-api.ts';
import { createReaderApi } from './reader-api.ts';
import { createShareApi } from './share/share-api.ts';

/**
 * The worker's API: a plain object of async functions, each taking one params object and the
 * call context. The page sees its type only (`Api`), through client.ts.
 */
export function createApi(env: WorkerEnv) {
  return { ...createLibraryApi(env), ...createReaderApi(env), ...createShareApi(env) };
}

/** The type the page programs against. */
export type Api = ReturnType<typeof createApi>;
