// Where an import's sessions get their parts built: in this worker (`localParts`), or in a worker of
// their own (part-remote.ts), which tokenizes and compresses on another core while this one parses
// and writes the session's bytes. Documents go over in batches as the parse makes them, so a big
// session's part is nearly done when its last line is read. Every part the import waits for is
// answered: built, or refused (the builder failed, ended, or could not read a request), and then
// the import builds it in place (import-batch.ts).
import type { EntryDoc } from './extract.ts';
import { type BuiltPart, KIND_CODE, KINDS } from './part.ts';
import { createPartBuilder } from './part-build.ts';

/** One session's part on its way: its documents in order, then its bytes (or `drop`: the session was not stored). */
export interface PartJob {
  add(doc: EntryDoc): void;
  finish(): Promise<BuiltPart>;
  drop(): void;
}

/** Makes parts: one job per session. */
export interface PartJobs {
  open(): PartJob;
}

/** A message to a builder worker: documents of job `job` (packed), and whether they are its last; or the job dropped. */
export type PartRequest = { job: number; docs: PackedDocs; end: boolean } | { job: number; drop: true };

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

/**
 * A builder worker's answer: the job's part, or why it could not be made; `broken`: a request it
 * could not read (whose job it cannot name: it is of no more use); `life`: it holds the Web Lock
 * named after it (its death releases it).
 */
export type PartAnswer = { job: number; part: BuiltPart } | { job: number; error: string } | { broken: string } | { life: string };

/** Parts built in this worker, as the documents come. */
export function localParts(): PartJobs {
  return {
    open() {
      const b = createPartBuilder();
      return { add: (doc) => b.add(doc), finish: async () => b.finish(), drop: () => undefined };
    },
  };
}
