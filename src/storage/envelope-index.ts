// Where a session's stored envelope index lives (core/envelope/envelope-file.ts is its format): one file
// per session in its own directory, so the sessions directory the library reconciles holds
// session files only. The index is a cache: missing, stale or damaged, it is made again from the
// session; losing it loses nothing. An append adds a block of its entries at the end of the file
// (core/envelope/envelope-records.ts), read back with the rest; when blocks pile up, the next append
// folds them into one index written whole.
import { compactEnvelopeFile } from '../core/envelope/envelope-compact.ts';
import { decodeRecordBlock, TRAILER_BYTES, trailerLength } from '../core/envelope/envelope-records.ts';
import { concatBytes } from '../core/read/record-stream.ts';
import { once } from './chunks.ts';
import { sessionPath } from './names.ts';
import type { Disk, SessionStore, StoredEnvelopeState } from './types.ts';

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

/** The state session `id`'s stored index ends with, read from its last block alone; null when there is none, or it is torn. */
export async function readEnvelopeState(disk: Disk, id: string): Promise<StoredEnvelopeState | null> {
  const path = envelopePath(id);
  try {
    const fileBytes = await disk.size(path);
    if (fileBytes === null || fileBytes < TRAILER_BYTES) return null;
    const length = trailerLength(await disk.read(path, fileBytes - TRAILER_BYTES, fileBytes));
    if (length === null || length + TRAILER_BYTES > fileBytes) return null;
    const start = fileBytes - TRAILER_BYTES - length;
    const block = decodeRecordBlock(await disk.read(path, start, fileBytes));
    return block && start >= block.state.baseBytes ? { state: block.state, fileBytes } : null;
  } catch {
    return null;
  }
}

/** Adds a block at the end of session `id`'s stored index (the disk cuts it back when the write fails). */
export async function appendEnvelopeFile(disk: Disk, id: string, block: Uint8Array): Promise<void> {
  await disk.append(envelopePath(id), block);
}

/** Blocks after the index worth this many bytes (or a quarter of the index, when more) are folded into it by the next append. */
export const COMPACT_MIN_BYTES = 64 * 1024;

/** Whether blocks of `blocksBytes` after an index of `baseBytes` are folded into it. */
export const compactsAt = (baseBytes: number, blocksBytes: number) => blocksBytes > Math.max(COMPACT_MIN_BYTES, baseBytes / 4);

/**
 * Adds the block `encode` gives (null when it cannot) after session `id`'s stored index, which ended
 * with `at` when the caller read it (under the session's write lock); when the blocks after the
 * index pile up, writes it whole with them folded in instead. Failures are ignored: it is only a cache.
 */
export async function keepEnvelopeBlock(
  store: Pick<SessionStore, 'appendEnvelopes' | 'readEnvelopes' | 'writeEnvelopes'>,
  id: string,
  at: StoredEnvelopeState,
  encode: () => Uint8Array | null,
): Promise<void> {
  if (!store.appendEnvelopes) return;
  const block = encode();
  if (!block) return;
  try {
    if (!compactsAt(at.state.baseBytes, at.fileBytes - at.state.baseBytes + block.length) || !store.readEnvelopes || !store.writeEnvelopes) {
      await store.appendEnvelopes(id, block);
      return;
    }
    const stored = await store.readEnvelopes(id);
    if (!stored || stored.length !== at.fileBytes) return;
    const compacted = compactEnvelopeFile(concatBytes([stored, block]));
    if (compacted) await store.writeEnvelopes(id, compacted);
  } catch {
    // Only a cache: the next open reads what is there, or indexes the file again.
  }
}
