import type { Disk, SessionStore } from '../storage/types.ts';
import type { PartJobs } from './search/part-jobs.ts';

/** What the worker API is built from: a store, a clock and an id source (swapped in tests). */
export interface WorkerEnv {
  store: SessionStore;
  now(): Date;
  /** 8 lowercase hex characters. */
  randomId(): string;
  /** Where the search index keeps its parts (the store's disk); in memory when absent. */
  searchDisk?: Disk;
  /** How long the search index keeps its segments open after a query (default 3 s; tests of several workers on one disk shorten it). */
  searchReaderIdleMs?: number;
  /** Where an import's sessions get their search index parts built (a worker of their own in the app); in this worker when absent. */
  searchParts?: PartJobs;
  /** false: imports leave the search index to the sync after them (the search bench's baseline); default true. */
  indexAtImport?: boolean;
  /** Why the store is held in memory (OPFS could not be opened); absent when the library is kept. */
  memoryReason?: string;
}
