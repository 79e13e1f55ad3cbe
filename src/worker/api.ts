import type { WorkerEnv } from './env.ts';
import { createLinkedApi, type LinkedEnv } from './linked/api.ts';
import { createLibraryApi } from './library-api.ts';
import { createReaderApi } from './reader-api.ts';
import { createSubagentApi } from './subagents/api.ts';
import { createShareApi } from './share/share-api.ts';

/**
 * The worker's API: a plain object of async functions, each taking one params object and the
 * call context. The page sees its type only (`Api`), through client.ts.
 */
export function createApi(env: WorkerEnv & Partial<LinkedEnv>) {
  return { ...createLibraryApi(env), ...createReaderApi(env), ...createSubagentApi(env), ...createLinkedApi(env), ...createShareApi(env) };
}

/** The type the page programs against. */
export type Api = ReturnType<typeof createApi>;
