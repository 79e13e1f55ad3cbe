// How sessions become parts of the index: from their file's bytes (a sync's rebuild), or from the
// lines an import already parsed (its sink: nothing reads the file again), gathered and written as
// one segment with the import's next batch, and put in the manifest under the index's lock.
// A part refused by whoever built it is built here from the file; whatever else fails in a batch is
// only missing from the manifest, and the next sync builds it from the file.
import { withLock } from '../../storage/locks.ts';
import type { Disk, SessionStore, SessionSummary } from '../../storage/types.ts';
import { createExtractor, type SessionMeta } from './extract.ts';
import { type Carry, createFingerprint } from './fingerprint.ts';
import type { createManifestCache } from './manifest-cache.ts';
import { type BuiltPart, buildPart } from './part.ts';
import { localParts, type PartJobs } from './part-jobs.ts';
import { createSegmentWriter, type ManifestEntry } from './segments.ts';

/** The index's Web Lock (between tabs and workers). */
export const LOCK = 'rho-sessions:search-index';
// Bytes an import gathers before it writes them as a segment.
const GATHER_BYTES = 8 * 1024 * 1024;

/** A session as it was read or imported, its part built; `carry`: what reading lines appended to its file would go on from (none for another agent's file). */
export interface Fresh {
  meta: SessionMeta;
  part: BuiltPart;
  carry?: Carry;
}

/** The title the index gives a session (its name, else its first message). */
export const titleOf = (s: SessionSummary) => s.title ?? s.firstMessage ?? '';

/** Reads a session's bytes (as far as the store's size says) and builds its part. */
export async function freshFromFile(store: SessionStore, s: SessionSummary, signal?: AbortSignal): Promise<Fresh> {
  const x = createExtractor(s.id, titleOf(s));
  const blob = (await store.readFile(s.id)).slice(0, s.size);
  const reader = blob.stream().getReader();
  const decoder = new TextDecoder();
  const print = createFingerprint();
  // The unfinished last line, in pieces: only each new chunk is searched for "\n", so a line of
  // many chunks is joined once, not once per chunk.
  let rest: string[] = [];
  for (;;) {
    signal?.throwIfAborted();
    const { done, value } = await reader.read();
    if (done) break;
    print.push(value);
    const text = decoder.decode(value, { stream: true });
    const first = text.indexOf('\n');
    if (first < 0) {
      rest.push(text);
      continue;
    }
    rest.push(text.slice(0, first));
    const lines = text.slice(first + 1).split('\n');
    x.line(rest.join(''));
    rest = [lines.pop() ?? ''];
    for (const line of lines) x.line(line);
  }
  const last = rest.join('') + decoder.decode();
  if (last) x.line(last);
  const { meta, docs } = x.finish(s.size);
  return { meta, part: buildPart(docs), ...(s.piSize === undefined ? { carry: { ...print.finish(), state: x.state() } } : {}) };
}

/**
 * The import's side of the index: a sink for each new session (import-session.ts `SessionSink`), and
 * `commit` at the end of an import call. `placed` hears each session once it is in the manifest, `settle` once a batch is.
 */
export function createImportBatch(
  disk: Disk,
  manifests: ReturnType<typeof createManifestCache>,
  placed: (f: Fresh, e: ManifestEntry) => void,
  settle: () => Promise<void>,
  sessions: SessionStore,
  parts: PartJobs = localParts(),
) {
  // Each session's part as it is being built (one that fails is left to the next sync).
  let gathered: Array<Promise<Fresh | null>> = [];
  let gatheredBytes = 0;
  let storing: Promise<void> = Promise.resolve();
  const store = (batch: Fresh[]) =>
    withLock(LOCK, async () => {
      const writer = createSegmentWriter(disk);
      for (const f of batch) writer.add(f.meta.id, f.part);
      const refs = await writer.close();
      const entries = batch.map((f): [string, ManifestEntry] => [
        f.meta.id,
        { meta: f.meta, ref: refs.get(f.meta.id)!, ...(f.carry ? { carry: f.carry } : {}) },
      ]);
      // The batch's entries, appended to the manifest's log without reading the manifest: the bytes
      // of the batch, not of the library (a copy the last sync left is kept up to date).
      await manifests.add(entries);
      for (const [i, f] of batch.entries()) placed(f, entries[i][1]);
      await settle();
    });
  const flush = () => {
    const pending = gathered;
    gathered = [];
    gatheredBytes = 0;
    // The parts are awaited before the lock is asked for (a query's sync meanwhile is not held up).
    if (pending.length)
      storing = storing.then(async () => {
        const batch = (await Promise.all(pending)).filter((f): f is Fresh => f !== null);
        if (batch.length) await store(batch).catch(() => undefined);
      });
    return storing;
  };
  return {
    /** A new session's sink: its part is made from the parsed lines on the way. */
    sinkFor(id: string) {
      const job = parts.open();
      const x = createExtractor(id, '', undefined, job.add);
      const print = createFingerprint();
      return {
        chunk: (bytes: Uint8Array) => print.push(bytes),
        value: (v: Record<string, unknown>) => x.value(v),
        abandon: () => job.drop(),
        done: (s: SessionSummary) => {
          // The index is over the pi view, whose size for another agent's file is its conversion's.
          const { meta } = x.finish(s.piSize ?? s.size, titleOf(s));
          const carry = s.piSize === undefined ? { carry: { ...print.finish(), state: x.state() } } : {};
          gathered.push(
            job
              .finish()
              .then(
                (part): Fresh => ({ meta, part, ...carry }),
                // Refused (its builder failed or ended): built here from the file just written.
                () => freshFromFile(sessions, s),
              )
              .then(
                (f) => {
                  gatheredBytes += f.part.words.length + f.part.facts.length + f.part.texts.length;
                  if (gatheredBytes >= GATHER_BYTES) void flush();
                  return f;
                },
                () => null,
              ),
          );
        },
      };
    },
    /** Writes what imports gathered (the end of an import call). */
    commit: (): Promise<void> => flush(),
  };
}
