// A sync of a linked folder: "import from one disk into another". Only files whose size or time
// changed are read; each goes through the import's append-aware rules (identical → unchanged, grew →
// the new bytes appended, diverged → a variant); a last line the agent is still writing is left for
// the next sync. Files gone from the folder stay in the library, and the report says so.
import type { FolderDisk, FolderFile } from '../../storage/folder.ts';
import { sliceOf } from '../../storage/chunks.ts';
import type { SessionStore } from '../../storage/types.ts';
import { blobRefsIn, type ImportItem, importSessionBlob, reserveAhead } from '../import/api.ts';
import { FIRST_READ } from '../import/session.ts';
import { linkSubagents } from '../subagents/link.ts';
import { syncBlobs } from './blobs.ts';
import { completeLength, type FolderState, planSync } from './plan.ts';

/** What one sync did. */
export interface SyncReport {
  /** The files that were read, each with its import outcome. */
  items: ImportItem[];
  /** How many files were as the last sync saw them (not read). */
  unchanged: number;
  /** Files gone from the folder since the last sync, with the sessions kept in the library. */
  gone: Array<{ path: string; id?: string }>;
  /** Files whose last line is still being written (imported up to the line before). */
  waiting: string[];
}

/** What a sync needs. */
export interface SyncContext {
  store: SessionStore;
  signal?: AbortSignal;
  /** Bytes read of the changed files so far, of `total`. */
  onProgress?: (done: number, total: number, label: string) => void;
}

const TAIL = 64 * 1024;
// Files read (and their sessions' write locks taken) ahead of the one being imported: each read is
// a round trip to the browser, which a folder of small sessions would otherwise wait for in turn.
const AHEAD = 8;
const AHEAD_BELOW = 1024 * 1024;

/** A changed file as read: its snapshot, the bytes up to its last complete line, and its first bytes when the tail read held them. */
interface Read {
  blob: Blob;
  complete: number;
  first?: Uint8Array;
}

async function readChanged(folder: FolderDisk, f: FolderFile): Promise<Read> {
  // The walk's snapshot (no second look for the file); where the browser refuses it because the
  // file changed since (a picked folder's file written to, a file removed), the file is looked up again.
  if (f.snapshot) {
    try {
      return await readTail(f.snapshot);
    } catch {
      // Changed since the walk: read as it is now.
    }
  }
  return readTail(await folder.blob(f.path));
}

async function readTail(blob: Blob): Promise<Read> {
  const tailStart = Math.max(0, blob.size - TAIL);
  const tail = new Uint8Array(await sliceOf(blob, tailStart).arrayBuffer());
  const complete = completeLength(tail, tailStart);
  // A small file's tail is the whole file: its first bytes need no second read.
  return tailStart === 0 && complete > 0 ? { blob, complete, first: tail.subarray(0, Math.min(complete, FIRST_READ)) } : { blob, complete };
}

/** Syncs a folder into the store; returns the report and the state the next sync starts from. */
export async function syncFolder(folder: FolderDisk, state: FolderState, ctx: SyncContext): Promise<{ report: SyncReport; state: FolderState }> {
  const files = [];
  for await (const f of folder.walk(ctx.signal)) files.push(f);
  const plan = planSync(state, files);
  const next: FolderState = { ...state };
  const report: SyncReport = { items: [], unchanged: plan.unchanged.length, gone: [], waiting: [] };
  for (const path of plan.gone) {
    report.gone.push({ path, ...(state[path].id ? { id: state[path].id } : {}) });
    delete next[path];
  }
  const total = plan.changed.reduce((n, f) => n + f.size, 0);
  let done = 0;
  const refs = new Set<string>();
  ctx.onProgress?.(0, total, plan.changed[0]?.path ?? '');
  // The next files read while this one is imported, their sessions' locks taken ahead (as a folder
  // import does, import/api.ts); what is stored, and in which order, is as without.
  const reads = new Map<number, Promise<Read>>();
  let current = 0;
  let over = false;
  const readAhead = (j: number) => {
    if (j >= plan.changed.length || reads.has(j)) return;
    const read = readChanged(folder, plan.changed[j]);
    read.then(
      (r) => r.first && !over && j > current && reserveAhead(ctx.store, r.first, ctx.signal),
      () => undefined,
    );
    reads.set(j, read);
  };
  try {
    for (const [i, f] of plan.changed.entries()) {
      ctx.signal?.throwIfAborted();
      current = i;
      readAhead(i);
      // Ahead only past small files: a lock held ahead waits for the files before it to be written.
      for (let k = 1; k <= AHEAD && i + k < plan.changed.length && plan.changed[i + k - 1].size <= AHEAD_BELOW; k++) readAhead(i + k);
      const read = reads.get(i) as Promise<Read>;
      reads.delete(i);
      await syncOne(f, await read);
      done += f.size;
      ctx.onProgress?.(done, total, f.path);
    }
  } finally {
    over = true;
    await ctx.store.releaseReserved?.();
  }

  async function syncOne(f: FolderFile, { blob, complete, first }: Read) {
    const known = state[f.path];
    if (complete < blob.size) report.waiting.push(f.path);
    if (complete === 0 || (known?.complete !== undefined && known.complete === complete && complete < blob.size)) {
      // Nothing complete yet, or only the unfinished line grew: no new line to import.
      next[f.path] = { ...known, size: blob.size, modified: f.modified, complete };
    } else {
      const lines = sliceOf(blob, 0, complete);
      const item = await importSessionBlob(f.path, lines, { store: ctx.store, signal: ctx.signal }, first);
      const { refs: found, ...plain } = item;
      report.items.push(plain);
      // Refs of a new session come from its scan; of an appended one, from the bytes appended.
      const before = known ? (known.complete ?? known.size) : 0;
      const more = found ?? (item.outcome === 'updated' ? await blobRefsIn(lines.slice(Math.min(before, lines.size)), ctx.signal) : []);
      for (const r of more) refs.add(r);
      next[f.path] = { size: blob.size, modified: f.modified, ...(item.id ? { id: item.id } : {}), ...(complete < blob.size ? { complete } : {}) };
    }
  }
  // omp's images (blobs/<sha256>) that the sessions read refer to.
  for (const path of await syncBlobs(folder, files, refs, ctx.store))
    report.items.push({ name: path, outcome: 'rejected', reason: 'image blob whose bytes do not match its sha256 name' });
  // Children link to parents by path: every session path of the folder is a possible parent.
  const changedIds = new Set(report.items.map((i) => i.id));
  const all = Object.entries(next).flatMap(([path, s]) => (s.id ? [{ path, id: s.id }] : []));
  const linked = await linkSubagents(
    ctx.store,
    all.filter((s) => changedIds.has(s.id)),
    ctx.signal,
    all,
  );
  for (const i of report.items) if (i.id && linked.has(i.id)) i.parentOf = linked.get(i.id);
  await ctx.store.flush();
  return { report, state: next };
}
