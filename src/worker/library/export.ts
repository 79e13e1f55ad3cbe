// Export: a session's original bytes, its active branch as a linear session, and zip bundles of
// many sessions (with the omp blobs they refer to) that import restores on another device.
import { Zip, ZipDeflate } from 'fflate';
import { walkBranch } from '../../core/index.ts';
import { blobChunks, CHUNK_SIZE, concatBytes } from '../../storage/chunks.ts';
import { piFileName } from '../../storage/names.ts';
import type { ByteChunks, SessionStore, SessionSummary } from '../../storage/types.ts';
import { blobRefsIn } from '../import/api.ts';
import { ApiFailure } from '../protocol.ts';
import { bundlePaths } from '../subagents/bundle.ts';
import { ChunkQueue } from '../import/unpack.ts';

const encoder = new TextEncoder();

/** The name an exported session file takes: pi's `<timestamp>_<id>.jsonl` (a variant keeps its store id). */
export function exportName(s: SessionSummary): string {
  // Another agent's original keeps that agent's kind of name (Claude Code: `<id>.jsonl`; Codex: `rollout-<time>-<id>.jsonl`).
  if (s.agent === 'claude-code') return `${s.id.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '-')}.jsonl`;
  if (s.agent === 'codex') return `rollout-${s.created.slice(0, 19).replace(/:/g, '-')}-${s.id.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '-')}.jsonl`;
  return piFileName(s.id, s.created);
}

/**
 * The physical lines of a stored session whose 1-based numbers are in `wanted` (numbered as the
 * scan numbers them: every physical line counts), each followed by "\n", in file order. Reads in
 * chunks and keeps only the wanted lines' bytes.
 */
export async function* storedLines(store: SessionStore, id: string, size: number, wanted: ReadonlySet<number>, signal?: AbortSignal): ByteChunks {
  let line = 1;
  let keep: Uint8Array[] = [];
  for (let at = 0; at < size; at += CHUNK_SIZE) {
    signal?.throwIfAborted();
    const chunk = await store.readRange(id, at, Math.min(at + CHUNK_SIZE, size));
    let pos = 0;
    for (;;) {
      const nl = chunk.indexOf(10, pos);
      const end = nl < 0 ? chunk.length : nl;
      if (wanted.has(line)) keep.push(chunk.slice(pos, end));
      if (nl < 0) break;
      if (wanted.has(line)) {
        keep.push(NEWLINE);
        yield concatBytes(keep);
        keep = [];
      }
      line++;
      pos = nl + 1;
    }
  }
  if (keep.length) {
    keep.push(NEWLINE);
    yield concatBytes(keep);
  }
}

const NEWLINE = new Uint8Array([10]);

/** The scan of a session and the line numbers of the branch ending at `leafId` (the leaf's when absent). */
async function branchOf(store: SessionStore, id: string, leafId?: string) {
  const scan = await store.scan(id);
  if (leafId !== undefined && !scan.tree.indexById.has(leafId)) throw new ApiFailure('not-found', `No entry ${leafId} in this session.`);
  const { entries } = walkBranch(scan.tree, leafId);
  const lines = new Set<number>();
  for (const e of entries) lines.add(scan.tree.entryLines[scan.tree.indexById.get(e.id as string) as number]);
  return { scan, lines };
}

/** The active branch (or the one ending at leafId) as a linear JSONL session: the header line, then the branch's lines. */
export async function exportBranchChunks(store: SessionStore, s: SessionSummary, leafId?: string): Promise<ByteChunks> {
  const { scan, lines } = await branchOf(store, s.id, leafId);
  if (scan.tree.headerLine) lines.add(scan.tree.headerLine);
  return storedLines(store, s.id, s.size, lines);
}

/** A new session holding one branch: a fresh header (new id, parentSession = the source), then the branch's lines. */
export async function forkChunks(
  store: SessionStore,
  s: SessionSummary,
  leafId: string | undefined,
  fresh: { id: string; timestamp: string },
): Promise<ByteChunks> {
  const { scan, lines } = await branchOf(store, s.id, leafId);
  const source = scan.tree.header;
  const header: Record<string, unknown> = { type: 'session', version: 3, id: fresh.id, timestamp: fresh.timestamp, cwd: source?.cwd ?? '' };
  if (source) header.parentSession = source.id;
  if (typeof source?.title === 'string' && source.title) header.title = source.title;
  const body = storedLines(store, s.id, s.size, lines);
  return (async function* () {
    yield encoder.encode(JSON.stringify(header) + '\n');
    yield* body;
  })();
}

/**
 * A zip of sessions in pi's layout (`sessions/<project>/<timestamp>_<id>.jsonl`) plus `blobs/<sha256>`
 * for every omp image they refer to. Written through fflate's streaming Zip into a scratch file,
 * so a bundle of many large sessions never sits in memory.
 */
export async function exportBundleBlob(
  store: SessionStore,
  sessions: SessionSummary[],
  signal?: AbortSignal,
  onProgress?: (done: number, total: number) => void,
  all: SessionSummary[] = sessions,
): Promise<Blob> {
  const queue = new ChunkQueue();
  const zip = new Zip((err, data, final) => {
    if (err) return queue.fail(err);
    queue.push(data);
    if (final) queue.end();
  });
  const spooling = store.spool(queue, signal);
  spooling.catch(() => undefined);
  const refs = new Set<string>();
  const names = bundlePaths(sessions, all);
  try {
    const total = sessions.reduce((n, s) => n + s.size, 0);
    let done = 0;
    for (const s of sessions) {
      signal?.throwIfAborted();
      const entry = new ZipDeflate(names.get(s.id) as string, { level: 1 });
      zip.add(entry);
      const file = await store.readFile(s.id);
      for await (const chunk of blobChunks(file, 0, 1024 * 1024, signal)) {
        entry.push(chunk);
        done += chunk.length;
        onProgress?.(done, total);
        // Let the spool write what was produced before reading on: memory stays about one chunk.
        await Promise.race([queue.drained(), spooling.then(() => undefined)]);
      }
      entry.push(new Uint8Array(0), true);
      for (const r of await blobRefsIn(file, signal)) refs.add(r);
    }
    for (const sha of refs) {
      const blob = await store.readBlob(sha);
      if (!blob) continue;
      // Images are compressed already: stored (level 0) in the zip.
      const entry = new ZipDeflate(`blobs/${sha}`, { level: 0 });
      zip.add(entry);
      entry.push(new Uint8Array(await blob.arrayBuffer()), true);
    }
    zip.end();
  } catch (e) {
    queue.fail(e);
    await spooling.catch(() => undefined);
    throw e;
  }
  return (await spooling).blob;
}
