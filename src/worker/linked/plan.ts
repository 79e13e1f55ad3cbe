// What a sync of a linked folder must look at, decided from sizes and times alone: a file whose size
// and modification time are what the last sync saw is unchanged and is not read at all.
import type { FolderFile } from '../../storage/folder.ts';

/** What the last sync saw of one file of the folder. */
export interface SyncedFile {
  size: number;
  modified: number;
  /** The store id the file's session has (absent when it was not a session). */
  id?: string;
  /** Bytes up to the last complete line when the agent was still writing the last one. */
  complete?: number;
}

/** Per linked folder: path → what the last sync saw. */
export type FolderState = Record<string, SyncedFile>;

/** The plan of one sync. */
export interface SyncPlan {
  /** New files, and files whose size or time differ: their bytes are compared with the library's. */
  changed: FolderFile[];
  /** Paths seen as they were. */
  unchanged: string[];
  /** Paths the last sync saw that are gone from the folder (their sessions stay in the library). */
  gone: string[];
}

/** Whether a path of the folder may hold a session (agents write sessions as `.jsonl`). */
export function isSessionPath(path: string): boolean {
  return path.endsWith('.jsonl') && !path.split('/').some((p) => p.startsWith('.'));
}

/** Sorts the folder's files into changed, unchanged and gone against the last sync's state. */
export function planSync(state: FolderState, files: FolderFile[]): SyncPlan {
  const plan: SyncPlan = { changed: [], unchanged: [], gone: [] };
  const seen = new Set<string>();
  for (const f of files) {
    if (!isSessionPath(f.path)) continue;
    seen.add(f.path);
    const known = state[f.path];
    if (known && known.size === f.size && known.modified === f.modified) plan.unchanged.push(f.path);
    else plan.changed.push(f);
  }
  for (const path of Object.keys(state)) if (!seen.has(path)) plan.gone.push(path);
  // Parents before their subagent folders (shorter paths first), so a child finds its parent stored.
  plan.changed.sort((a, b) => a.path.split('/').length - b.path.split('/').length || a.path.localeCompare(b.path));
  return plan;
}

/** The bytes of a file up to and including its last "\n": a last line still being written waits for the next sync. */
export function completeLength(tail: Uint8Array, tailStart: number): number {
  const nl = tail.lastIndexOf(10);
  return nl < 0 ? tailStart : tailStart + nl + 1;
}
