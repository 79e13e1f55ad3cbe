// Export: a session's original bytes, its active branch as a linear session, and zip bundles of
// many sessions (with the omp blobs they refer to) that import restores on another device.
import { Zip, ZipDeflate } from 'fflate';
import { parse, walkBranch, type Entry, type ParsedSession } from '../core/index.ts';
import { blobChunks, concatBytes } from '../storage/chunks.ts';
import { piFileName, piProjectDir } from '../storage/names.ts';
import type { SessionStore, SessionSummary } from '../storage/types.ts';
import { blobRefsIn } from './import.ts';
import { ChunkQueue } from './unpack.ts';

const encoder = new TextEncoder();

/** The name an exported session file takes: pi's `<timestamp>_<id>.jsonl` (a variant keeps its store id). */
export function exportName(s: SessionSummary): string {
  return piFileName(s.id, s.created);
}

/** The original line bytes of the branch ending at `leafId`, after the header line (no title slot). */
export function branchLines(session: ParsedSession, bytes: Uint8Array, leafId?: string): { header: Uint8Array; lines: Uint8Array[]; entries: Entry[] } {
  const { entries } = walkBranch(session, leafId);
  const recordAt = new Map(session.records.map((r) => [r.line, r]));
  const headerRecord = session.records.find((r) => r.kind === 'header');
  const header = headerRecord ? bytes.subarray(headerRecord.start, headerRecord.end) : new Uint8Array(0);
  const lines: Uint8Array[] = [];
  for (const e of entries) {
    const line = session.entryLines[session.indexById.get(e.id as string) ?? -1];
    const r = line === undefined ? undefined : recordAt.get(line);
    if (r) lines.push(bytes.subarray(r.start, r.end));
  }
  return { header, lines, entries };
}

/** Joins lines with "\n", ending with one. */
export function joinLines(lines: Uint8Array[]): Uint8Array {
  const nl = new Uint8Array([10]);
  return concatBytes(lines.flatMap((l) => [l, nl]));
}

/** The active branch (or the one ending at leafId) as a linear JSONL session: header then the branch's lines. */
export async function exportBranchBytes(store: SessionStore, id: string, leafId?: string): Promise<Uint8Array> {
  const bytes = await store.readBytes(id);
  const session = parse(bytes);
  const { header, lines } = branchLines(session, bytes, leafId);
  return joinLines([header, ...lines]);
}

/** A new session holding one branch: a fresh header (new id, parentSession = the source), then the branch's lines. */
export async function forkBytes(store: SessionStore, id: string, leafId: string | undefined, fresh: { id: string; timestamp: string }): Promise<Uint8Array> {
  const bytes = await store.readBytes(id);
  const session = parse(bytes);
  const { lines } = branchLines(session, bytes, leafId);
  const header: Record<string, unknown> = { type: 'session', version: 3, id: fresh.id, timestamp: fresh.timestamp, cwd: session.header?.cwd ?? '' };
  if (session.header) header.parentSession = session.header.id;
  if (typeof session.header?.title === 'string' && session.header.title) header.title = session.header.title;
  return joinLines([encoder.encode(JSON.stringify(header)), ...lines]);
}

/**
 * A zip of sessions in pi's layout (`sessions/<project>/<timestamp>_<id>.jsonl`) plus `blobs/<sha256>`
 * for every omp image they refer to. Written through fflate's streaming Zip into a scratch file,
 * so a bundle of many large sessions never sits in memory.
 */
export async function exportBundleBlob(store: SessionStore, sessions: SessionSummary[], signal?: AbortSignal, onProgress?: (done: number, total: number) => void): Promise<Blob> {
  const queue = new ChunkQueue();
  const zip = new Zip((err, data, final) => {
    if (err) return queue.fail(err);
    queue.push(data);
    if (final) queue.end();
  });
  const spooling = store.spool(queue, signal);
  spooling.catch(() => undefined);
  const refs = new Set<string>();
  const usedNames = new Set<string>();
  try {
    const total = sessions.reduce((n, s) => n + s.size, 0);
    let done = 0;
    for (const s of sessions) {
      signal?.throwIfAborted();
      let name = `sessions/${piProjectDir(s.cwd)}/${exportName(s)}`;
      for (let n = 2; usedNames.has(name); n++) name = name.replace(/(\.jsonl)$/, `-${n}$1`);
      usedNames.add(name);
      const entry = new ZipDeflate(name, { level: 1 });
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
