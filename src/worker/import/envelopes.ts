// The stored envelope index (core/envelope/envelope-file.ts) written as a session is stored, from the bytes
// as they stream to the disk (core/envelope/envelope-stream.ts): an import's new session gets its index
// with no second read of the file, an append adds a block of its entries after the index stored for
// the bytes before it (reading only that index's last block, never the index itself).
// Only a cache: when it cannot be built this way (or storing it fails) the reader indexes the
// file on its first open and stores it then (stored-source.ts); all store it through
// storage/envelope-index.ts, the one writer of stored envelope indexes.
import { FINGERPRINT_BYTES, fingerprintOf } from '../../core/envelope/envelope-file.ts';
import { createEnvelopeIndexer, type EnvelopeIndexer } from '../../core/envelope/envelope-stream.ts';
import { tap } from '../../storage/chunks.ts';
import { keepEnvelopeBlock, keepEnvelopeIndex, keepsEnvelopeIndex } from '../../storage/envelope-index.ts';
import type { ByteChunks, SessionStore, StoredEnvelopeState } from '../../storage/types.ts';

/** Bytes on their way to the store, indexed as they pass; `save` stores the index once they are written. */
export interface IndexingTap {
  chunks: ByteChunks;
  save(id: string): Promise<void>;
  /** For a new session: each record as the store's reading parses it (core `DigestOptions.onRecordAt`); the index is built from them. */
  record?: EnvelopeIndexer['record'];
}

/** An indexer and how its result is kept: written whole, or added as a block after the stored index that ended with `at`. */
interface Indexing {
  indexer: EnvelopeIndexer;
  at?: StoredEnvelopeState;
}

function indexing(store: SessionStore, chunks: ByteChunks, how: Indexing | null, size: number): IndexingTap {
  if (!how || !store.writeEnvelopes) return { chunks, save: async () => undefined };
  const { indexer, at } = how;
  return {
    chunks: tap(chunks, (c) => indexer.push(c)),
    record: indexer.record,
    save: (id) => (at ? keepEnvelopeBlock(store, id, at, () => indexer.finish()) : keepEnvelopeIndex(store, id, size, () => indexer.finish())),
  };
}

/**
 * A new session's bytes (all of them, from the first, `size` in all), indexed as they are written
 * when the session keeps an index: past its first lines, from the records its reading parses
 * (`record`, to be handed to the digest; without them no index is stored and the first open makes it).
 */
export function indexNewSession(store: SessionStore, chunks: ByteChunks, size: number): IndexingTap {
  return indexing(store, chunks, keepsEnvelopeIndex(size) ? { indexer: createEnvelopeIndexer(undefined, { records: true }) } : null, size);
}

/**
 * Bytes appended to stored session `id` (now `size` bytes, `total` after the append), adding their
 * block to its stored index when that describes exactly those `size` bytes; else nothing is written (the stale
 * index, if any, is refused by its fingerprint on the next open and rebuilt there; a session that
 * grows past `ENVELOPE_MIN_BYTES` gets its first index there). Call under the session's write lock.
 */
export async function indexAppend(store: SessionStore, id: string, size: number, total: number, chunks: ByteChunks): Promise<IndexingTap> {
  return indexing(store, chunks, keepsEnvelopeIndex(total) ? await storedPrefix(store, id, size) : null, total);
}

async function storedPrefix(store: SessionStore, id: string, size: number): Promise<Indexing | null> {
  if (!store.readEnvelopeState || !store.appendEnvelopes || size === 0) return null;
  try {
    const at = await store.readEnvelopeState(id);
    if (!at || at.state.size !== size) return null;
    const head = await store.readRange(id, 0, Math.min(size, FINGERPRINT_BYTES));
    const lastAt = Math.max(0, size - FINGERPRINT_BYTES);
    const last = await store.readRange(id, lastAt, size);
    const edges = (start: number, end: number) => (start === 0 ? head.subarray(0, end) : last.subarray(start - lastAt, end - lastAt));
    if (at.state.fingerprint !== fingerprintOf(size, edges)) return null;
    return { indexer: createEnvelopeIndexer({ state: at.state, head, last }), at };
  } catch {
    return null;
  }
}

/** After `bytes` were appended to session `id` (which had `size` bytes): adds them to its stored index as `indexAppend` does. */
export async function indexAppended(store: SessionStore, id: string, size: number, bytes: Uint8Array): Promise<void> {
  if (!keepsEnvelopeIndex(size + bytes.length)) return;
  const how = await storedPrefix(store, id, size);
  if (!how?.at) return;
  how.indexer.push(bytes);
  await keepEnvelopeBlock(store, id, how.at, () => how.indexer.finish());
}
