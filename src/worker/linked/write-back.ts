// Write back: a session that is longer in the library than in its linked folder (it grew on another
// device) goes back to the folder the agent reads. When the folder's file is a byte prefix of ours,
// the rest is appended to it; otherwise ours is written as a new file beside it, named as pi names
// files. Never a truncate, an overwrite or a delete (FolderDisk offers none).
import { parse } from '../../core/index.ts';
import { blobChunks, CHUNK_SIZE } from '../../storage/chunks.ts';
import type { FolderDisk } from '../../storage/folder.ts';
import { piFileName } from '../../storage/names.ts';
import type { SessionStore } from '../../storage/types.ts';
import { relate } from '../import/api.ts';
import { parseBlob } from '../reader/parse-blob.ts';
import { ApiFailure } from '../protocol.ts';

/** One entry that a write-back will put in the folder. */
export interface WrittenEntry {
  id: string;
  type: string;
  /** A short text for the confirmation (role and the first words). */
  preview: string;
}

/** What a write-back would do, shown for confirmation before anything is written. */
export interface WriteBackPlan {
  id: string;
  /** The folder's file of this session. */
  path: string;
  /** append: the folder's file is a prefix of ours; new-file: it is not, ours goes beside it. */
  mode: 'append' | 'new-file' | 'nothing';
  /** Where the bytes go (the same path when appending). */
  target: string;
  /** The folder's file size when planned: an append refuses if the agent wrote since. */
  folderSize: number;
  bytes: number;
  entries: WrittenEntry[];
}

function previewOf(e: Record<string, unknown>): string {
  const m = e.message as { role?: string; content?: unknown } | undefined;
  const content = m?.content;
  const text =
    typeof content === 'string'
      ? content
      : Array.isArray(content)
        ? content.map((p) => (p as { text?: string; type?: string }).text ?? `[${(p as { type?: string }).type}]`).join(' ')
        : typeof e.summary === 'string'
          ? e.summary
          : typeof e.content === 'string'
            ? e.content
            : '';
  const who = m?.role ?? String(e.type);
  return `${who}: ${text.replace(/\s+/g, ' ').trim().slice(0, 100)}`;
}

function entriesOf(bytes: Uint8Array, skip: ReadonlySet<string>): WrittenEntry[] {
  const parsed = parse(bytes, { validate: false });
  return parsed.entries.filter((e) => e.id && !skip.has(e.id)).map((e) => ({ id: e.id as string, type: e.type, preview: previewOf(e) }));
}

/** Plans the write-back of session `id`, whose file in the folder is `path`. */
export async function planWriteBack(folder: FolderDisk, store: SessionStore, id: string, path: string, now: Date): Promise<WriteBackPlan> {
  const stored = await store.get(id);
  if (!stored) throw new ApiFailure('not-found', `No session ${id} is stored.`);
  const file = await folder.stat(path);
  if (!file) throw new ApiFailure('not-found', `${path} is no longer in the folder ${folder.name}.`);
  const theirs = await folder.blob(path);
  const relation = await relate(store, id, stored.size, theirs);
  const base = { id, path, folderSize: theirs.size };
  // relate() speaks of an import: "incoming" is the folder's file, "stored" is ours.
  if (relation === 'identical' || relation === 'stored-prefix') return { ...base, mode: 'nothing', target: path, bytes: 0, entries: [] };
  if (relation === 'incoming-prefix') {
    const tail = await store.readRange(id, theirs.size, stored.size);
    const ours = await store.readBytes(id);
    const before = new Set(parse(ours.subarray(0, theirs.size), { validate: false }).entries.map((e) => e.id as string));
    return { ...base, mode: 'append', target: path, bytes: tail.length, entries: entriesOf(ours, before) };
  }
  // Diverged: ours goes beside theirs as a new file (pi's name: the time it is written, then the session id).
  const ours = await store.readBytes(id);
  const theirIds = new Set((await parseBlob(theirs, { validate: false })).entries.map((e) => e.id as string));
  const headerId = parse(ours.subarray(0, Math.min(ours.length, 64 * 1024)), { validate: false }).header?.id ?? id;
  const dir = path.includes('/') ? path.slice(0, path.lastIndexOf('/') + 1) : '';
  let target = `${dir}${piFileName(headerId, now.toISOString())}`;
  for (let n = 2; await folder.stat(target); n++) target = `${dir}${piFileName(headerId, new Date(now.getTime() + n).toISOString())}`;
  return { ...base, mode: 'new-file', target, bytes: ours.length, entries: entriesOf(ours, theirIds) };
}

/** Carries out a plan the user confirmed. The append refuses when the agent wrote to the file since the plan. */
export async function writeBack(folder: FolderDisk, store: SessionStore, plan: WriteBackPlan): Promise<{ written: number; target: string }> {
  if (plan.mode === 'nothing') return { written: 0, target: plan.target };
  const stored = await store.get(plan.id);
  if (!stored) throw new ApiFailure('not-found', `No session ${plan.id} is stored.`);
  if (plan.mode === 'append') {
    // Only what was shown: the stored bytes after the folder's end, up to the size planned.
    const tail = await store.readRange(plan.id, plan.folderSize, plan.folderSize + plan.bytes);
    try {
      await folder.appendAt(plan.path, plan.folderSize, tail);
    } catch (e) {
      if ((e as DOMException)?.name === 'InvalidModificationError')
        throw new ApiFailure(
          'conflict',
          `${plan.path} changed in the folder since the write-back was planned; nothing was written. Sync, then try again.`,
          plan.path,
        );
      throw e;
    }
    return { written: tail.length, target: plan.path };
  }
  const blob = await store.readFile(plan.id);
  try {
    await folder.createNew(plan.target, blobChunks(blob, 0, CHUNK_SIZE));
  } catch (e) {
    if ((e as DOMException)?.name === 'InvalidModificationError')
      throw new ApiFailure('conflict', `${plan.target} exists already; nothing was replaced.`, plan.target);
    throw e;
  }
  return { written: blob.size, target: plan.target };
}
