// Opening a session for the reader from its stored envelope index (core/envelope/envelope-file.ts), so a
// reopen reads that index and only the bodies it shows, not the whole file. The index is checked
// against the session (size and fingerprint): the same bytes → used as it is; bytes appended since
// → extended by reading only those; anything else (missing, damaged, other bytes) → the file is
// read and indexed as before, and the index stored again. Never a different answer than indexing
// the file whole: the extension only takes lines the full scan would read the same way.
import { extendEnvelopeIndex } from '../../core/envelope/envelope-append.ts';
import { decodeEnvelopeIndex, encodeEnvelopeIndex, fingerprintOf } from '../../core/envelope/envelope-file.ts';
import type { EnvelopeIndex } from '../../core/envelope/envelopes.ts';
import { openSource, type SessionSource, sourceOfIndex } from '../../core/view/index.ts';
import { keepEnvelopeIndex, keepsEnvelopeIndex } from '../../storage/envelope-index.ts';
import type { SessionStore } from '../../storage/types.ts';

/** Bytes read at a time for bodies (neighbouring rows share a read), and how many such blocks stay in memory. */
const BLOCK = 1 << 20;
const MAX_BLOCKS = 48;
/** How long after an open the worker waits before storing the index (the first screen's calls come first). */
const SAVE_DELAY_MS = 1500;

type Read = (start: number, end: number) => Uint8Array;

/** FileReaderSync, in dedicated workers only (read through globalThis: the page's types, which see this file, lack it). */
const SyncReader = (globalThis as { FileReaderSync?: new () => { readAsArrayBuffer(blob: Blob): ArrayBuffer } }).FileReaderSync;

/** Synchronous reads of a file snapshot (FileReaderSync, dedicated workers), through a small block cache. */
export function blockReader(file: Blob): Read {
  if (!SyncReader) throw new Error('FileReaderSync is only in workers');
  const reader = new SyncReader();
  const blocks = new Map<number, Uint8Array>();
  const direct = (start: number, end: number) => new Uint8Array(reader.readAsArrayBuffer(file.slice(start, end)));
  const block = (n: number) => {
    let bytes = blocks.get(n);
    if (bytes) blocks.delete(n);
    else bytes = direct(n * BLOCK, (n + 1) * BLOCK);
    blocks.set(n, bytes);
    if (blocks.size > MAX_BLOCKS) blocks.delete(blocks.keys().next().value as number);
    return bytes;
  };
  return (start, end) => {
    end = Math.min(end, file.size);
    if (end <= start) return new Uint8Array(0);
    const first = Math.floor(start / BLOCK);
    const last = Math.floor((end - 1) / BLOCK);
    if (first === last) return block(first).subarray(start - first * BLOCK, end - first * BLOCK);
    // A long line: read it alone rather than fill the cache with it.
    return direct(start, end);
  };
}

/** Stores the index a little later (after the first screen's calls), ignoring failures: it is only a cache. A small session keeps none. */
function saveLater(store: SessionStore, id: string, index: EnvelopeIndex, read: Read) {
  if (!store.writeEnvelopes || !keepsEnvelopeIndex(index.size)) return;
  const fingerprint = fingerprintOf(index.size, read);
  const timer = setTimeout(() => void keepEnvelopeIndex(store, id, index.size, () => encodeEnvelopeIndex(index, fingerprint)), SAVE_DELAY_MS) as unknown as {
    unref?: () => void;
  };
  timer.unref?.();
}

/** The session's reader source: from its stored index when it still describes the file, else by indexing the file (and storing that index). */
export async function openStoredSource(store: SessionStore, id: string): Promise<SessionSource> {
  // The share page's worker reads its session by ranges (from chunks it unpacks as needed) and has no file.
  const ranged = store.rangeReader ? await store.rangeReader(id) : null;
  if (!ranged && (!SyncReader || !store.readEnvelopes || !store.writeEnvelopes)) return openSource(id, await store.readBytes(id));
  const [file, stored] = await Promise.all([ranged ? null : store.readFile(id), store.readEnvelopes?.(id).catch(() => null) ?? null]);
  const read = ranged ? ranged.read : blockReader(file as Blob);
  const size = ranged ? ranged.size : (file as Blob).size;
  const decoded = stored ? decodeEnvelopeIndex(stored, read, { file: id }) : null;
  if (decoded && decoded.index.size <= size && decoded.fingerprint === fingerprintOf(decoded.index.size, read)) {
    const { index } = decoded;
    if (index.size === size) return sourceOfIndex(id, index);
    const extended = extendEnvelopeIndex(index, read(index.size - 1, index.size)[0] ?? -1, read(index.size, size), read);
    if (extended) {
      saveLater(store, id, extended, read);
      return sourceOfIndex(id, extended);
    }
  }
  const bytes = ranged ? ranged.read(0, size) : new Uint8Array(await (file as Blob).arrayBuffer());
  const source = openSource(id, bytes);
  if (source.index.isSession) saveLater(store, id, source.index, (start, end) => bytes.subarray(start, end));
  return source;
}
