// Where an import's sessions get their parts built: in this worker (`localParts`), or in a worker of
// their own (`remoteParts`), which tokenizes and compresses on another core while this one parses
// and writes the session's bytes. Documents go over in batches as the parse makes them, so a big
// session's part is nearly done when its last line is read. A builder worker that fails takes its
// unfinished parts with it (their sessions are only missing from the manifest: the next sync builds
// them from their files) and later parts are built here.
import type { EntryDoc } from './extract.ts';
import { type BuiltPart, KIND_CODE, KINDS } from './part.ts';
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

/** A message to a builder worker: documents of job `job` (packed), and whether they are its last. */
export interface PartRequest {
  job: number;
  docs: PackedDocs;
  end: boolean;
}

/**
 * Documents as they cross to a builder worker: their ids and texts in one array of strings, the rest
 * in typed arrays (cloning thousands of small objects costs this worker more than building their part).
 */
export interface PackedDocs {
  /** Each document's id then text. */
  strings: string[];
  kinds: Uint8Array;
  flags: Uint8Array;
  ts: Float64Array;
  /** The tools of the documents that have any, and the model of those that name one, by index. */
  tools: Array<[number, string[]]>;
  model: Array<[number, string]>;
}

/** Packs documents for a builder worker (`unpackDocs` gives them back). */
export function packDocs(docs: readonly EntryDoc[]): PackedDocs {
  const n = docs.length;
  const p: PackedDocs = { strings: new Array(2 * n), kinds: new Uint8Array(n), flags: new Uint8Array(n), ts: new Float64Array(n), tools: [], model: [] };
  for (let i = 0; i < n; i++) {
    const d = docs[i];
    p.strings[2 * i] = d.id;
    p.strings[2 * i + 1] = d.text;
    p.kinds[i] = KIND_CODE.get(d.kind) ?? 0;
    p.flags[i] = d.flags;
    p.ts[i] = d.ts;
    if (d.tools) p.tools.push([i, d.tools]);
    if (d.model !== undefined) p.model.push([i, d.model]);
  }
  return p;
}

/** The documents `packDocs` packed. */
export function unpackDocs(p: PackedDocs): EntryDoc[] {
  const n = p.kinds.length;
  const docs: EntryDoc[] = new Array(n);
  for (let i = 0; i < n; i++) docs[i] = { id: p.strings[2 * i], kind: KINDS[p.kinds[i]], ts: p.ts[i], flags: p.flags[i], text: p.strings[2 * i + 1] };
  for (const [i, tools] of p.tools) docs[i].tools = tools;
  for (const [i, model] of p.model) docs[i].model = model;
  return docs;
}

/** The buffers of packed documents, transferred with them. */
export const packedBuffers = (p: PackedDocs): Transferable[] => [p.kinds.buffer, p.flags.buffer, p.ts.buffer] as Transferable[];

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
      for (const d of unpackDocs(docs)) b.add(d);
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
          if (!failed) w.post({ job, docs: packDocs(batch), end: false });
          batch = [];
          chars = 0;
        },
        finish() {
          if (failed) return Promise.reject(new Error("The search index's builder stopped"));
          const done = new Promise<BuiltPart>((resolve, reject) => waiting.set(job, { resolve, reject }));
          w.post({ job, docs: packDocs(batch), end: true });
          batch = [];
          return done;
        },
      };
    },
  };
}
