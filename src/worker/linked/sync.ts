// A sync of a linked folder: "import from one disk into another". Only files whose size or time
// changed are read; each goes through the import's append-aware rules (identical → unchanged, grew →
// the new bytes appended, diverged → a variant); a last line the agent is still writing is left for
// the next sync. Files gone from the folder stay in the library, and the report says so.
import type { FolderDisk } from '../../storage/folder.ts';
import type { SessionStore } from '../../storage/types.ts';
import { blobRefsIn, type ImportItem, importSessionBlob } from '../import/api.ts';
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
  for (const f of plan.changed) {
    ctx.signal?.throwIfAborted();
    const blob = await folder.blob(f.path);
    const tailStart = Math.max(0, blob.size - TAIL);
    const complete = completeLength(new Uint8Array(await blob.slice(tailStart).arrayBuffer()), tailStart);
    const known = state[f.path];
    if (complete < blob.size) report.waiting.push(f.path);
    if (complete === 0 || (known?.complete !== undefined && known.complete === complete && complete < blob.size)) {
      // Nothing complete yet, or only the unfinished line grew: no new line to import.
      next[f.path] = { ...known, size: blob.size, modified: f.modified, complete };
    } else {
      const lines = blob.slice(0, complete);
      const item = await importSessionBlob(f.path, lines, { store: ctx.store, signal: ctx.signal });
      const { refs: found, ...plain } = item;
      report.items.push(plain);
      // Refs of a new session come from its scan; of an appended one, from the bytes appended.
      const before = known ? (known.complete ?? known.size) : 0;
      const more = found ?? (item.outcome === 'updated' ? await blobRefsIn(lines.slice(Math.min(before, lines.size)), ctx.signal) : []);
      for (const r of more) refs.add(r);
      next[f.path] = { size: blob.size, modified: f.modified, ...(item.id ? { id: item.id } : {}), ...(complete < blob.size ? { complete } : {}) };
    }
    done += f.size;
    ctx.onProgress?.(done, total, f.path);
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
