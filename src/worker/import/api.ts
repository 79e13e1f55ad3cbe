// Import: every file gets an outcome (import-session.ts decides it). Files, folders (as path + file
// lists) and bundles; gzip and zip are unpacked through scratch files.
import { readHeader } from '../../core/index.ts';
import { blobChunks, CHUNK_SIZE } from '../../storage/chunks.ts';
import type { SessionStore } from '../../storage/types.ts';
import { firstBytes, type ImportContext, type ImportItem, importSessionBlob } from './session.ts';
import { ApiFailure } from '../protocol.ts';
import { linkSubagents } from '../subagents/link.ts';
import { blobPathHash, eachZipEntry, gunzip, sniff } from './unpack.ts';
import { unzstd } from './unzstd.ts';

export {
  type ByteRelation,
  type ImportContext,
  type ImportItem,
  type ImportOutcome,
  importSessionBlob,
  relate,
  type SessionSink,
} from './session.ts';

/** The report of one import call. */
export interface ImportReport {
  items: ImportItem[];
}

const BLOB_REF = /blob:sha256:([0-9a-f]{64})/g;
const NESTING_LIMIT = 2;
// Files read (and their sessions' locks taken) ahead of the one being imported, while the ones
// before them are this small (the storage bench's folder: 5-100 KB sessions).
const AHEAD = 8;
const AHEAD_BELOW = 1024 * 1024;

/** The omp blob refs in a blob of text (a plain scan, no JSON parsing). */
export async function blobRefsIn(blob: Blob, signal?: AbortSignal): Promise<Set<string>> {
  const refs = new Set<string>();
  const decoder = new TextDecoder();
  let carry = '';
  for await (const chunk of blobChunks(blob, 0, CHUNK_SIZE, signal)) {
    const text = carry + decoder.decode(chunk, { stream: true });
    for (const m of text.matchAll(BLOB_REF)) refs.add(m[1]);
    carry = text.slice(-90);
  }
  return refs;
}

/** sha256 of bytes, lowercase hex. */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Takes the write lock of the pi session whose first bytes are `first` ahead of its turn
 * (store.reserve: the lock, the look for its file and a new file's opening overlap the work of the
 * files before it). The caller lets go of what it did not use with `store.releaseReserved`.
 */
export function reserveAhead(store: SessionStore, first: Uint8Array, signal?: AbortSignal): void {
  if (!store.reserve || signal?.aborted || sniff(first) !== 'text') return;
  const { header, problem } = readHeader(first);
  if (header && (!problem || problem.code === 'future-version')) store.reserve(header.id);
}

/** One file as the page sent it. */
export interface IncomingFile {
  path: string;
  file: Blob;
}

interface PendingBlob {
  name: string;
  hash: string;
  blob: Blob;
  fromBundle: boolean;
}

/**
 * Imports files, folders (as path + file lists) and bundles. Sessions first; then the omp image
 * blobs that the imported sessions refer to (all of a bundle's blobs, which it carries for that).
 */
export async function importAll(files: IncomingFile[], ctx: ImportContext): Promise<ImportReport> {
  // Each given file's lines of the report (a bundle has one per entry), joined in order at the end.
  const itemsOf: ImportItem[][] = files.map(() => []);
  const refs = new Set<string>();
  const blobs: PendingBlob[] = [];

  const visit = async (name: string, blob: Blob, depth: number, fromBundle: boolean, fileCtx: ImportContext, items: ImportItem[]): Promise<void> => {
    ctx.signal?.throwIfAborted();
    const hash = blobPathHash(name);
    if (hash) {
      // Blobs go last, once we know which ones the sessions refer to; bundle blobs are spooled and
      // released as the zip moves on, so keep their bytes (images are small) for the end.
      blobs.push({ name, hash, fromBundle, blob: fromBundle ? new Blob([await blob.arrayBuffer()]) : blob });
      return;
    }
    // One read tells the kind and, for a session, holds its header (a small session whole).
    const first = await (ahead.get(blob) ?? firstBytes(blob));
    ahead.delete(blob);
    const kind = sniff(first);
    if (kind !== 'text' && depth >= NESTING_LIMIT) {
      items.push({ name, outcome: 'rejected', reason: 'an archive nested too deeply' });
      return;
    }
    if (kind === 'gzip' || kind === 'zstd') {
      let spooled: Awaited<ReturnType<SessionStore['spool']>>;
      try {
        spooled = await ctx.store.spool(kind === 'gzip' ? gunzip(blob, ctx.signal) : unzstd(blob, ctx.signal), ctx.signal);
      } catch (e) {
        if (isAbortOrQuota(e)) throw e;
        items.push({ name, outcome: 'rejected', reason: `not a readable ${kind} file (${(e as Error).message})` });
        return;
      }
      try {
        await visit(name.replace(kind === 'gzip' ? /\.gz$/i : /\.zst$/i, ''), spooled.blob, depth + 1, fromBundle, fileCtx, items);
      } finally {
        await spooled.release();
      }
      return;
    }
    if (kind === 'zip') {
      try {
        await eachZipEntry(blob, ctx.store, (entry, entryBlob) => visit(`${name}/${entry}`, entryBlob, depth + 1, true, fileCtx, items), ctx.signal);
      } catch (e) {
        if (isAbortOrQuota(e)) throw e;
        items.push({ name, outcome: 'rejected', reason: `not a readable zip file (${(e as Error).message})` });
      }
      return;
    }
    const { refs: scanned, title, ...rest } = await importSessionBlob(name, blob, fileCtx, first);
    // A bundle's entries are long paths: its report names each session by its title too.
    const result: ImportItem = fromBundle && title ? { ...rest, title } : rest;
    items.push(result);
    if (result.outcome !== 'rejected') for (const r of scanned ?? (await blobRefsIn(blob, ctx.signal))) refs.add(r);
  };

  // The next files' first bytes, read while this one is written: a read of the page's file is a
  // round trip to the browser, which a folder of small sessions would otherwise wait for each time.
  // A pi session's write lock is then taken ahead too (store.reserve: the lock, the look for its
  // file and a new file's opening overlap this file's work). What is stored, and in which order,
  // is as before.
  const ahead = new Map<Blob, Promise<Uint8Array>>();
  let current = 0;
  // Set once the import is over (done, cancelled or failed): a read that lands later takes no lock.
  let over = false;
  const readAhead = (j: number) => {
    const f = files[j];
    if (!f || ahead.has(f.file) || blobPathHash(f.path)) return;
    const read = firstBytes(f.file);
    read.then(
      (first) => !over && j > current && reserveFor(first),
      () => undefined,
    );
    ahead.set(f.file, read);
  };
  const reserveFor = (first: Uint8Array) => reserveAhead(ctx.store, first, ctx.signal);

  try {
    // Progress in bytes of the files as sent (a gzip or zip counts its compressed size).
    let base = 0;
    for (const [i, f] of files.entries()) {
      current = i;
      // Ahead only past small files: a lock held ahead waits for the files before it to be written.
      for (let k = 1; k <= AHEAD && i + k < files.length && files[i + k - 1].file.size <= AHEAD_BELOW; k++) readAhead(i + k);
      const fileCtx: ImportContext = { ...ctx, onBytes: (n, label) => ctx.onBytes?.(base + Math.min(n, f.file.size), label) };
      try {
        await visit(f.path, f.file, 0, false, fileCtx, itemsOf[i]);
      } catch (e) {
        if ((e as { name?: string })?.name !== 'QuotaExceededError') throw e;
        // A full device: name the file that did not fit and say what was kept before it.
        const kept = itemsOf.flat().filter((i) => i.outcome === 'added' || i.outcome === 'updated' || i.outcome === 'variant').length;
        throw new ApiFailure(
          'quota-exceeded',
          `No room left on this device for ${f.path}: it was not stored.${kept ? ` The ${kept} file${kept === 1 ? '' : 's'} imported before it ${kept === 1 ? 'was' : 'were'} kept.` : ''} Sessions stored earlier are unchanged.`,
          f.path,
        );
      }
      base += f.file.size;
      ctx.onBytes?.(base, f.path);
    }
  } finally {
    over = true;
    await ctx.store.releaseReserved?.();
  }
  const items = itemsOf.flat();

  // Subagent transcripts beside their parents (omp and pi layouts) become the parents' children.
  const stored = items.filter((i) => i.id && i.outcome !== 'rejected').map((i) => ({ path: i.name, id: i.id as string }));
  const parents = await linkSubagents(ctx.store, stored, ctx.signal);
  for (const i of items) if (i.id && parents.has(i.id)) i.parentOf = parents.get(i.id);

  for (const b of blobs) {
    if (!b.fromBundle && !refs.has(b.hash)) continue;
    if (await ctx.store.hasBlob(b.hash)) continue;
    const bytes = new Uint8Array(await b.blob.arrayBuffer());
    // The name is only a claim: a blob is stored under the hash of its bytes, or not at all.
    if ((await sha256Hex(bytes)) !== b.hash) {
      items.push({ name: b.name, outcome: 'rejected', reason: 'image blob whose bytes do not match its sha256 name' });
      continue;
    }
    await ctx.store.writeBlob(b.hash, bytes);
  }
  return { items };
}

function isAbortOrQuota(e: unknown): boolean {
  const name = (e as { name?: string })?.name;
  return name === 'AbortError' || name === 'QuotaExceededError';
}
