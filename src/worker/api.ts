import type { WorkerEnv } from './env.ts';
import { createLibraryApi } from './library-api.ts';
import { createReaderApi } from './reader-api.ts';
import { createSearchApi, createSearchIndexOf } from './search-api.ts';

// Library calls that change sessions: the search index follows each of them (in the background;
// a query meanwhile brings it up to date itself).
const WRITES = [
  'importFiles',
  'importText',
  'deleteSession',
  'undoDelete',
  'renameSession',
  'labelEntry',
  'appendEntries',
  'forkBranch',
  'rebuildIndex',
] as const;

/**
 * The worker's API: a plain object of async functions, each taking one params object and the
 * call context. The page sees its type only (`Api`), through client.ts.
 */
export function createApi(env: WorkerEnv) {
  const index = createSearchIndexOf(env);
  const library = createLibraryApi(env);
  for (const name of WRITES) {
    const call = library[name] as (p: unknown, c: unknown) => Promise<unknown>;
    (library as Record<string, unknown>)[name] = (p: unknown, c: unknown) => call(p, c).finally(() => index.syncSoon());
  }
  return { ...library, ...createReaderApi(env), ...createSearchApi(index, env) };
}

/** The type the page programs against. */
export type Api = ReturnType<typeof createApi>;
