/// <reference lib="webworker" />
// A worker that builds the search index's parts of an import's sessions for the library's worker (part-jobs.ts).
import { answerPartJobs } from './part-jobs.ts';

declare const self: DedicatedWorkerGlobalScope;

answerPartJobs(self);
