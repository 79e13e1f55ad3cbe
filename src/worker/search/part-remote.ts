// The library's worker's side of a builder worker (part-answer.ts): each job's documents go over in
// batches and its part comes back. A part is waited for only from a builder that is watched (it
// said `life`: its end, however it comes, is heard); a job whose end comes before that keeps its
// documents and is built here. Every part waited for is settled: built, or rejected when the
// builder refuses it, fails, ends, cannot read a request, or cannot be sent one; the import then
// builds that part in place. After a failure the builder is stopped and later parts built here.
import type { EntryDoc } from './extract.ts';
import { type BuiltPart, buildPart } from './part.ts';
import { localParts, type PartAnswer, type PartJobs, type PartRequest, packDocs } from './part-jobs.ts';

/** What this side needs of a builder worker. */
export interface PartWorker {
  post(request: PartRequest): void;
  /** Its answers, and its failure or end (it then answers nothing more). */
  listen(onAnswer: (a: PartAnswer) => void, onFailure: (e: Error) => void): void;
  /** Ends it (after a failure: nothing it says is heard any more). */
  stop(): void;
}

// Characters of text gathered before a batch of documents is posted.
const BATCH_CHARS = 256 * 1024;

/** Parts built by the worker `spawn` makes (on the first job); once it fails, here. */
export function remoteParts(spawn: () => PartWorker): PartJobs {
  let worker: PartWorker | null = null;
  let failed = false;
  let alive = false;
  let next = 0;
  const waiting = new Map<number, { resolve(p: BuiltPart): void; reject(e: Error): void }>();
  const local = localParts();
  const fail = (e: Error) => {
    if (failed) return;
    failed = true;
    const w = worker;
    worker = null;
    for (const wait of waiting.values()) wait.reject(e);
    waiting.clear();
    try {
      w?.stop();
    } catch {
      // Gone already.
    }
  };
  const heard = (a: PartAnswer) => {
    if ('life' in a) {
      alive = true;
      return;
    }
    if ('broken' in a) return fail(new Error(`The search index's builder could not read ${a.broken}`));
    const wait = waiting.get(a.job);
    waiting.delete(a.job);
    if ('part' in a) wait?.resolve(a.part);
    else wait?.reject(new Error(`The search index's builder could not build a part: ${a.error}`));
  };
  const start = (): PartWorker | null => {
    if (worker || failed) return worker;
    try {
      const w = spawn();
      worker = w;
      w.listen(heard, fail);
    } catch (e) {
      fail(e instanceof Error ? e : new Error(String(e)));
    }
    return worker;
  };
  // Posts a request; false when there is no builder to take it (any more).
  const post = (request: PartRequest): boolean => {
    if (failed || !worker) return false;
    try {
      worker.post(request);
      return true;
    } catch (e) {
      fail(new Error(`The search index's builder could not be sent a request: ${e instanceof Error ? e.message : String(e)}`));
      return false;
    }
  };
  return {
    open() {
      if (!start()) return local.open();
      const job = next++;
      let batch: EntryDoc[] = [];
      let chars = 0;
      let posted = false;
      // Until the builder is watched, the documents are kept too: the part may have to be built here.
      let kept: EntryDoc[] | null = alive ? null : [];
      return {
        add(doc) {
          if (kept && alive) kept = null;
          kept?.push(doc);
          batch.push(doc);
          chars += doc.text.length;
          if (chars < BATCH_CHARS) return;
          posted = post({ job, docs: packDocs(batch), end: false }) || posted;
          batch = [];
          chars = 0;
        },
        finish() {
          if (kept && (!alive || failed)) {
            if (posted) post({ job, drop: true });
            return Promise.resolve(buildPart(kept));
          }
          const done = new Promise<BuiltPart>((resolve, reject) => {
            if (failed) reject(new Error("The search index's builder stopped"));
            else waiting.set(job, { resolve, reject });
          });
          // A request that cannot be sent fails the builder, which rejects `done`.
          post({ job, docs: packDocs(batch), end: true });
          batch = [];
          return done;
        },
        drop() {
          batch = [];
          kept = null;
          if (posted) post({ job, drop: true });
        },
      };
    },
  };
}
