// Where a session's stored envelope index lives (core/envelope/envelope-file.ts is its format): one file
// per session in its own directory, so the sessions directory the library reconciles holds
// session files only. The index is a cache: missing, stale or damaged, it is made again from the
// session; losing it loses nothing.
import { once } from './chunks.ts';
import { sessionPath } from './names.ts';
import type { Disk, SessionStore } from './types.ts';

/**
 * Sessions smaller than this keep no stored index: an import reads that much as its first read, and
 * opening one reads it whole and indexes it in about a millisecond, so a second file per session
 * (written at import, looked up at open) would cost more than it saves (a folder of 500 such
 * sessions paid for 500 more files).
 */
export const ENVELOPE_MIN_BYTES = 256 * 1024;

/** Whether a session of `size` bytes keeps a stored envelope index. */
export const keepsEnvelopeIndex = (size: number) => size >= ENVELOPE_MIN_BYTES;

/** The directory of stored envelope indexes. */
export const ENVELOPES_DIR = 'envelopes';

/** The stored envelope index of a session: `envelopes/<id>.idx`. */
export function envelopePath(id: string): string {
  return `${ENVELOPES_DIR}/${sessionPath(id)
    .split('/')
    .pop()!
    .replace(/\.jsonl$/, '')}.idx`;
}

/** The stored index bytes of session `id`, or null when there are none. */
export async function readEnvelopeFile(disk: Disk, id: string): Promise<Uint8Array | null> {
  const path = envelopePath(id);
  if ((await disk.size(path)) === null) return null;
  try {
    return await disk.read(path);
  } catch {
    return null;
  }
}

/**
 * Stores the index bytes of session `id`. Written in place where the disk can (no temp file, no
 * move, no fsync: an import pays this for every session): a reader waits while the file is open
 * for writing, and what a crash leaves half written fails the index's checksum and is made again.
 */
export async function writeEnvelopeFile(disk: Disk, id: string, bytes: Uint8Array): Promise<void> {
  if (disk.writeInPlace) await disk.writeInPlace(envelopePath(id), once(bytes), { flush: false });
  else await disk.writeNew(envelopePath(id), once(bytes));
}

/**
 * Stores session `id`'s envelope index (encoded by `encode`, null when it cannot be) for a session of
 * `size` bytes, when such a session keeps one; failures are ignored: it is only a cache.
 */
export async function keepEnvelopeIndex(store: Pick<SessionStore, 'writeEnvelopes'>, id: string, size: number, encode: () => Uint8Array | null): Promise<void> {
  if (!store.writeEnvelopes || !keepsEnvelopeIndex(size)) return;
  let bytes: Uint8Array | null;
  try {
    bytes = encode();
  } catch {
    // Not storable (e.g. more than 65,535 entry types): the next open indexes the file again.
    return;
  }
  if (bytes) await store.writeEnvelopes(id, bytes).catch(() => undefined);
}
