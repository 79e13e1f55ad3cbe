/// <reference lib="webworker" />
// A worker that builds the search index's parts of an import's sessions for the library's worker (part-answer.ts).
import { serveBuilder } from './part-answer.ts';

declare const self: DedicatedWorkerGlobalScope;

serveBuilder(self);
