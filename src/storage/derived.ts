// Other agents' files (Claude Code, Codex) in the store: their original bytes stay in sessions/,
// and everything that reads a session as pi reads their pi conversion instead (the worker makes
// it through core/formats and hands it to the store with the file's reading). The conversion is
// kept in derived/ beside a key of the original it came from (its size and a hash of its first and
// last bytes: these files only grow by appending), so a reopen does not convert again, and a grown
// original is read afresh. Like envelopes/, derived/ is only a cache.
import { concatBytes, diskChunks, once } from './chunks.ts';
import { isNotFound } from './errors.ts';
import { SESSIONS_DIR, sessionPath } from './names.ts';
import type { Disk, SessionReader } from './types.ts';

/** The directory of pi conversions. */
export const DERIVED_DIR = 'derived';
/** Bytes at each end of the original that its key hashes. */
const KEY_BYTES = 64 * 1024;

const baseName = (id: string) =>
  sessionPath(id)
    .split('/')
    .pop()!
    .replace(/\.jsonl$/, '');
/** Where the pi conversion of session `id` is kept. */
export const derivedPath = (id: string) => `${DERIVED_DIR}/${baseName(id)}.jsonl`;
const keyPath = (id: string) => `${DERIVED_DIR}/${baseName(id)}.key`;

/** FNV-1a over bytes, from a seed. */
function fnv(bytes: Uint8Array, seed: number): number {
  let h = seed >>> 0;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 16777619) >>> 0;
  return h;
}

/** The key of an original: its size and a hash of its first and last KEY_BYTES. */
export function keyOf(size: number, head: Uint8Array, tail: Uint8Array): string {
  const both = concatBytes([head, tail]);
  return `${size}:${fnv(both, 2166136261).toString(16)}${fnv(both, 0x9e3779b9).toString(16)}`;
}

/** The key of the original as it is on disk. */
async function keyOnDisk(disk: Disk, path: string): Promise<string | null> {
  const size = await disk.size(path);
  if (size === null) return null;
  const head = await disk.read(path, 0, Math.min(size, KEY_BYTES));
  const tail = await disk.read(path, Math.max(0, size - KEY_BYTES), size);
  return keyOf(size, head, tail);
}

/** Keeps the conversion of the original at `path` in derived/ under its key (a failure only costs a conversion later). */
export async function keepDerived(disk: Disk, id: string, path: string, bytes: Uint8Array): Promise<void> {
  const key = await keyOnDisk(disk, path);
  if (key !== null) await keep(disk, id, key, bytes);
}

async function keep(disk: Disk, id: string, key: string, bytes: Uint8Array): Promise<void> {
  try {
    await disk.writeNew(derivedPath(id), once(bytes));
    await disk.writeNew(keyPath(id), once(new TextEncoder().encode(JSON.stringify({ key, size: bytes.length }))));
  } catch (e) {
    if ((e as DOMException)?.name !== 'QuotaExceededError') throw e;
  }
}

/** Forgets a session's conversion (trash, replace). */
export async function dropDerived(disk: Disk, id: string): Promise<void> {
  await disk.remove(keyPath(id));
  await disk.remove(derivedPath(id));
}

/**
 * The pi conversion of stored session `id` (original at `path`) as a Blob, fresh against the
 * original: the kept one when its key still matches, else the original read again through `read`
 * and its conversion kept. Null for a pi file.
 */
export async function freshDerived(disk: Disk, id: string, path: string, read: SessionReader): Promise<Blob | null> {
  const key = await keyOnDisk(disk, path);
  if (key === null) return null;
  try {
    const kept = JSON.parse(new TextDecoder().decode(await disk.read(keyPath(id)))) as { key?: string; size?: number };
    if (kept.key === key && (await disk.size(derivedPath(id))) === kept.size) return await disk.blob(derivedPath(id));
  } catch (e) {
    if (!isNotFound(e) && !(e instanceof SyntaxError)) throw e;
  }
  const reading = read(path.slice(SESSIONS_DIR.length + 1));
  for await (const chunk of diskChunks(disk, path)) reading.push(chunk);
  const derived = reading.finish().derived;
  if (!derived) return null;
  // Under the key read before: a file that grew meanwhile is read again next time.
  await keep(disk, id, key, derived);
  return new Blob([derived as Uint8Array<ArrayBuffer>], { type: 'application/x-ndjson' });
}
