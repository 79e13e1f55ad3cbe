// The stored envelope index (core/envelope/envelope-file.ts) written as a session is stored, from the bytes
// as they stream to the disk (core/envelope/envelope-stream.ts): an import's new session gets its index
// with no second read of the file, an append extends the index stored for the bytes before it.
// Only a cache: when it cannot be built this way (or storing it fails) the reader indexes the
// file on its first open and stores it then (stored-source.ts); both store it through
// `keepEnvelopeIndex` (storage/envelope-index.ts), the one writer of stored envelope indexes.
import { decodeEnvelopeIndex, FINGERPRINT_BYTES, fingerprintOf } from '../../core/envelope/envelope-file.ts';
import { createEnvelopeIndexer, type EnvelopeIndexer } from '../../core/envelope/envelope-stream.ts';
import { tap } from '../../storage/chunks.ts';
import { keepEnvelopeIndex, keepsEnvelopeIndex } from '../../storage/envelope-index.ts';
import type { ByteChunks, SessionStore } from '../../storage/types.ts';

/** Bytes on their way to the store, indexed as they pass; `save` stores the index once they are written. */
export interface IndexingTap {
  chunks: ByteChunks;
  save(id: string): Promise<void>;
  /** For a new session: each record as the store's reading parses it (core `DigestOptions.onRecordAt`); the index is built from them. */
  record?: EnvelopeIndexer['record'];
}

function indexing(store: SessionStore, chunks: ByteChunks, indexer: EnvelopeIndexer | null, size: number): IndexingTap {
  if (!indexer || !store.writeEnvelopes) return { chunks, save: async () => undefined };
  return {
    chunks: tap(chunks, (c) => indexer.push(c)),
    record: indexer.record,
    save: (id) => keepEnvelopeIndex(store, id, size, () => indexer.finish()),
  };
}

/**
 * A new session's bytes (all of them, from the first, `size` in all), indexed as they are written
 * when the session keeps an index: past its first lines, from the records its reading parses
 * (`record`, to be handed to the digest; without them no index is stored and the first open makes it).
 */
export function indexNewSession(store: SessionStore, chunks: ByteChunks, size: number): IndexingTap {
  return indexing(store, chunks, keepsEnvelopeIndex(size) ? createEnvelopeIndexer(undefined, { records: true }) : null, size);
}

/**
 * Bytes appended to stored session `id` (now `size` bytes, `total` after the append), extending its
 * stored index when that describes exactly those `size` bytes; else nothing is written (the stale
 * index, if any, is refused by its fingerprint on the next open and rebuilt there; a session that
 * grows past `ENVELOPE_MIN_BYTES` gets its first index there). Call under the session's write lock.
 */
export async function indexAppend(store: SessionStore, id: string, size: number, total: number, chunks: ByteChunks): Promise<IndexingTap> {
  return indexing(store, chunks, keepsEnvelopeIndex(total) ? await storedPrefix(store, id, size) : null, total);
}

async function storedPrefix(store: SessionStore, id: string, size: number): Promise<EnvelopeIndexer | null> {
  if (!store.readEnvelopes || size === 0) return null;
  try {
    const stored = await store.readEnvelopes(id);
    if (!stored) return null;
    const head = await store.readRange(id, 0, Math.min(size, FINGERPRINT_BYTES));
    const lastAt = Math.max(0, size - FINGERPRINT_BYTES);
    const last = await store.readRange(id, lastAt, size);
    const edges = (start: number, end: number) => (start === 0 ? head.subarray(0, end) : last.subarray(start - lastAt, end - lastAt));
    // Bodies are never read while extending (only envelopes of the new lines).
    const decoded = decodeEnvelopeIndex(stored, () => new Uint8Array(0), { file: id });
    if (!decoded || decoded.index.size !== size || decoded.fingerprint !== fingerprintOf(size, edges)) return null;
    return createEnvelopeIndexer({ index: decoded.index, head, last });
  } catch {
    return null;
  }
}

/** After `bytes` were appended to session `id` (which had `size` bytes): extends its stored index as `indexAppend` does. */
export async function indexAppended(store: SessionStore, id: string, size: number, bytes: Uint8Array): Promise<void> {
  if (!keepsEnvelopeIndex(size + bytes.length)) return;
  const indexer = await storedPrefix(store, id, size);
  if (!indexer) return;
  indexer.push(bytes);
  await keepEnvelopeIndex(store, id, size + bytes.length, () => indexer.finish());
}
