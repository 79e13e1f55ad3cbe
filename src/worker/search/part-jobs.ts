// Where an import's sessions get their parts built: in this worker (`localParts`), or in a worker of
// their own (`remoteParts`), which tokenizes and compresses on another core while this one parses
// and writes the session's bytes. Documents go over in batches as the parse makes them, so a big
// session's part is nearly done when its last line is read. A builder worker that fails takes its
// unfinished parts with it (their sessions are only missing from the manifest: the next sync builds
// them from their files) and later parts are built here.
import type { EntryDoc } from './extract.ts';
import type { BuiltPart } from './part.ts';
import { createPartBuilder, type PartBuilder } from './part-build.ts';

/** One session's part on its way: its documents in order, then its bytes. */
export interface PartJob {
  add(doc: EntryDoc): void;
  finish(): Promise<BuiltPart>;
}

/** Makes parts: one job per session. */
export interface PartJobs {
  open(): PartJob;
}

/** A message to a builder worker: documents of job `job`, and whether they are its last. */
export interface PartRequest {
  job: number;
  docs: EntryDoc[];
  end: boolean;
}

/** A builder worker's answer: the job's part, or why it could not be made. */
export type PartAnswer = { job: number; part: BuiltPart } | { job: number; error: string };

/** What a builder worker's side needs: its messages in, its answers out. */
export interface PartPort {
  addEventListener(type: 'message', fn: (e: MessageEvent<PartRequest>) => void): void;
  postMessage(answer: PartAnswer, transfer: Transferable[]): void;
}

/** Parts built in this worker, as the documents come. */
export function localParts(): PartJobs {
  return {
    open() {
      const b = createPartBuilder();
      return { add: (doc) => b.add(doc), finish: async () => b.finish() };
    },
  };
}

/** A builder worker's side: builds each job's part from its batches, and answers with it (its bytes transferred). */
export function answerPartJobs(port: PartPort): void {
  const jobs = new Map<number, PartBuilder>();
  port.addEventListener('message', (e) => {
    const { job, docs, end } = e.data;
    try {
      let b = jobs.get(job);
      if (!b) jobs.set(job, (b = createPartBuilder()));
      for (const d of docs) b.add(d);
      if (!end) return;
      jobs.delete(job);
      const part = b.finish();
      port.postMessage({ job, part }, [part.facts.buffer, part.texts.buffer] as Transferable[]);
    } catch (err) {
      jobs.delete(job);
      port.postMessage({ job, error: err instanceof Error ? err.message : String(err) }, []);
    }
  });
}

/** What this side needs of a builder worker. */
export interface PartWorker {
  post(request: PartRequest): void;
  /** Its answers, and its failure (it then answers nothing more). */
  listen(onAnswer: (a: PartAnswer) => void, onFailure: (e: Error) => void): void;
}

// Characters of text gathered before a batch of documents is posted.
const BATCH_CHARS = 256 * 1024;

/** Parts built by the worker `spawn` makes (on the first job); once it fails, here. */
export function remoteParts(spawn: () => PartWorker): PartJobs {
  let worker: PartWorker | null = null;
  let failed = false;
  let next = 0;
  const waiting = new Map<number, { resolve(p: BuiltPart): void; reject(e: Error): void }>();
  const local = localParts();
  const start = (): PartWorker | null => {
    if (worker || failed) return worker;
    try {
      const w = spawn();
      w.listen(
        (a) => {
          const wait = waiting.get(a.job);
          waiting.delete(a.job);
          if ('part' in a) wait?.resolve(a.part);
          else wait?.reject(new Error(`The search index's builder could not build a part: ${a.error}`));
        },
        (e) => {
          failed = true;
          worker = null;
          for (const w of waiting.values()) w.reject(e);
          waiting.clear();
        },
      );
      worker = w;
    } catch {
      failed = true;
    }
    return worker;
  };
  return {
    open() {
      const w = start();
      if (!w) return local.open();
      const job = next++;
      let batch: EntryDoc[] = [];
      let chars = 0;
      return {
        add(doc) {
          batch.push(doc);
          chars += doc.text.length;
          if (chars < BATCH_CHARS) return;
          if (!failed) w.post({ job, docs: batch, end: false });
          batch = [];
          chars = 0;
        },
        finish() {
          if (failed) return Promise.reject(new Error("The search index's builder stopped"));
          const done = new Promise<BuiltPart>((resolve, reject) => waiting.set(job, { resolve, reject }));
          w.post({ job, docs: batch, end: true });
          batch = [];
          return done;
        },
      };
    },
  };
}
