// The manifest on disk: search/manifest.json, the whole manifest as some sync or compaction wrote it,
// then search/manifest.log, the entries written since, one JSON line each. An import's batch or a
// sync that rebuilt a few sessions appends the entries it changed (the bytes of those entries, not a
// rewrite of every session's); the log is folded into a new manifest.json once it outgrows the file
// (manifest-cache.ts). The log's first line names the manifest.json it continues (that file's `log`
// field): a log that names another file (a crash between the two writes of a fold) is ignored.
//
// Every append begins with "\n", so a line a crash cut off is a line of its own, skipped when read;
// its sessions are missing from the manifest, and the next sync builds them from their files (their
// segment, named by nothing, is removed). A line at the very end that does not parse may still be
// being written: it is read again once the log grows. Every writer holds the index's lock.
import { once } from '../../storage/chunks.ts';
import { readLogLines, type LogRead } from '../../storage/index-log.ts';
import type { Disk } from '../../storage/types.ts';
import { SEARCH_DIR } from './segment-files.ts';
import { MANIFEST, type Manifest, type ManifestEntry, VERSION } from './segments.ts';

/** The log of manifest entries written since manifest.json. */
export const MANIFEST_LOG = `${SEARCH_DIR}/manifest.log`;
/** The format tag of the log's first line. */
export const MANIFEST_LOG_FORMAT = 'rho-sessions-search-log';

/** One line of the log: a session's entry, or null when it left the index. */
export type ManifestChange = readonly [id: string, entry: ManifestEntry | null];

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A fresh name for a log (and the manifest.json it continues). */
export const newManifestLogName = (): string => `${Date.now().toString(36)}-${Math.random().toString(16).slice(2, 10)}`;

const linesOf = (changes: Iterable<ManifestChange>) => {
  let out = '';
  for (const [id, e] of changes) out += `${JSON.stringify({ id, e })}\n`;
  return out;
};

/** The bytes of a new log named `name`, with its first entries. */
export const encodeManifestLogStart = (name: string, changes: Iterable<ManifestChange>): Uint8Array =>
  encoder.encode(`${JSON.stringify({ format: MANIFEST_LOG_FORMAT, v: VERSION, of: name })}\n${linesOf(changes)}`);

/** The bytes appended to a log for these entries. */
export const encodeManifestLogAppend = (changes: Iterable<ManifestChange>): Uint8Array => encoder.encode(`\n${linesOf(changes)}`);

const isEntry = (id: string, e: unknown): e is ManifestEntry => {
  const x = e as ManifestEntry;
  return !!x && typeof x === 'object' && !!x.meta && x.meta.id === id && !!x.ref && typeof x.ref.seg === 'string';
};

/** Reads log bytes that start at offset `at` of the log (0: its first line, checked against `name`, manifest.json's log name). */
export function readManifestLog(bytes: Uint8Array, at: number, name: string): LogRead<ManifestChange> {
  return readLogLines<ManifestChange>(
    bytes,
    at,
    (v) => {
      const h = v as { format?: unknown; v?: unknown; of?: unknown } | undefined;
      return !!h && h.format === MANIFEST_LOG_FORMAT && h.v === VERSION && h.of === name;
    },
    (v) => {
      const r = v as { id?: unknown; e?: unknown };
      return typeof r.id === 'string' && (r.e === null || isEntry(r.id, r.e)) ? [r.id, r.e] : null;
    },
  );
}

/** Applies the log's entries to a manifest. */
export function applyManifestChanges(m: Manifest, changes: Iterable<ManifestChange>): void {
  for (const [id, e] of changes) {
    if (e) m.sessions[id] = e;
    else delete m.sessions[id];
  }
}

/** manifest.json alone, or null when it is missing, unreadable or of another version (then everything is rebuilt). */
export async function readManifestFile(disk: Disk): Promise<Manifest | null> {
  try {
    const m = JSON.parse(decoder.decode(await disk.read(MANIFEST))) as Manifest;
    return m && m.v === VERSION && m.sessions && typeof m.sessions === 'object' ? m : null;
  } catch {
    return null;
  }
}

/** What a read of the manifest found: the manifest, and how far its log was read (`logOk`: the log, if any, continues this manifest.json). */
export interface ManifestRead {
  manifest: Manifest;
  logAt: number;
  logOk: boolean;
}

/** The manifest (manifest.json with its log), or null when there is no usable one. */
export async function readManifestWhole(disk: Disk): Promise<ManifestRead | null> {
  const manifest = await readManifestFile(disk);
  if (!manifest) return null;
  let bytes: Uint8Array | null = null;
  try {
    bytes = await disk.read(MANIFEST_LOG);
  } catch {
    // No log: nothing was appended since manifest.json.
  }
  if (!bytes?.length || !manifest.log) return { manifest, logAt: 0, logOk: !bytes?.length };
  const read = readManifestLog(bytes, 0, manifest.log);
  applyManifestChanges(manifest, read.changes);
  return { manifest, logAt: read.consumed, logOk: read.belongs };
}

/** The manifest (manifest.json with its log), or null when there is no usable one. */
export async function readManifest(disk: Disk): Promise<Manifest | null> {
  return (await readManifestWhole(disk))?.manifest ?? null;
}

/** Writes the whole manifest as manifest.json (swapped in whole) under a new log name, and removes the old log; the new name. */
export async function writeManifest(disk: Disk, m: Manifest): Promise<string> {
  const log = newManifestLogName();
  await disk.writeNew(MANIFEST, once(encoder.encode(JSON.stringify({ v: m.v, log, sessions: m.sessions }))));
  await disk.remove(MANIFEST_LOG);
  return log;
}
