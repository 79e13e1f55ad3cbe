// What a one-file page carries: the session cut into chunks of CHUNK_BYTES, each
// gzip-compressed on its own, and for big sessions the core's envelope index (core/envelope/envelope-file.ts)
// made at export. So the page's worker opens a 56 MB session without unpacking or scanning it:
// the index gives the tree, and only the chunks holding the bodies on screen are unpacked (the
// rest later, in the background). Layout: u32 (little-endian) length of a JSON header, the header,
// then the index's gzip (when there is one) and the chunks' gzips, one after another. An encrypted
// page encrypts this whole container, so nothing about the session shows outside the age file.
import { gunzipSync } from 'fflate';
import { encodeEnvelopeIndex, fingerprintOf } from '../../core/envelope/envelope-file.ts';
import { indexEnvelopes } from '../../core/envelope/envelopes.ts';
import { ApiFailure } from '../protocol.ts';

/** Session bytes per chunk: deflate's window is 32 KB, so a chunk this size compresses as well as the whole. */
export const CHUNK_BYTES = 1 << 20;
/** From this size on, the page carries the session's envelope index (below it, the page's worker scans the bytes in a few ms). */
export const INDEX_FROM_BYTES = 4 << 20;

/** The container's header. */
interface Layout {
  /** Bytes of the session. */
  size: number;
  /** Session bytes per chunk (the last one is shorter). */
  chunk: number;
  /** Compressed length of the index (0: none). */
  index: number;
  /** Compressed length of each chunk, in order. */
  pieces: number[];
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** gzip through the platform's CompressionStream (native, in the worker and in Node). */
export async function gzipBytes(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** gunzip through the platform's DecompressionStream, with a clear failure for damaged data. */
export async function gunzipBytes(bytes: Uint8Array): Promise<Uint8Array> {
  try {
    const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('gzip'));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  } catch (e) {
    throw damaged(e);
  }
}

function damaged(e: unknown): ApiFailure {
  const why = e instanceof Error ? e.message : String(e);
  return new ApiFailure('invalid-input', `This page's session is damaged: its compressed data does not unpack (${why}).`);
}

/** The container of a session's bytes (see the top of this file). */
export async function packSession(jsonl: Uint8Array): Promise<Uint8Array> {
  const pieces: Uint8Array[] = [];
  let index = 0;
  if (jsonl.length >= INDEX_FROM_BYTES) {
    const read = (start: number, end: number) => jsonl.subarray(start, end);
    const envelopes = indexEnvelopes(jsonl);
    try {
      const packed = await gzipBytes(encodeEnvelopeIndex(envelopes, fingerprintOf(jsonl.length, read)));
      pieces.push(packed);
      index = packed.length;
    } catch {
      // Not storable (more than 65,535 entry types): the page scans the session instead.
    }
  }
  const lengths: number[] = [];
  for (let at = 0; at < jsonl.length; at += CHUNK_BYTES) {
    const packed = await gzipBytes(jsonl.subarray(at, Math.min(jsonl.length, at + CHUNK_BYTES)));
    pieces.push(packed);
    lengths.push(packed.length);
  }
  const layout: Layout = { size: jsonl.length, chunk: CHUNK_BYTES, index, pieces: lengths };
  const header = encoder.encode(JSON.stringify(layout));
  let total = 4 + header.length;
  for (const p of pieces) total += p.length;
  const out = new Uint8Array(total);
  new DataView(out.buffer).setUint32(0, header.length, true);
  out.set(header, 4);
  let at = 4 + header.length;
  for (const p of pieces) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A container opened: the session's size, its index (when the page has one) and synchronous reads that unpack chunks as needed. */
export interface PagePayload {
  size: number;
  /** The gzip of the envelope index, or null. */
  index: Uint8Array | null;
  /** Bytes [start, end) of the session (chunks unpacked on first use, then kept). */
  read(start: number, end: number): Uint8Array;
  /** Unpacks chunks (negative: from the end) with the platform's decompressor, which is several times faster than the synchronous one. */
  unpack(chunks: readonly number[]): Promise<void>;
  /** Unpacks the chunks not unpacked yet, last first (the reader opens at the end), one task each. */
  unpackRest(): Promise<void>;
}

function layoutOf(container: Uint8Array): { layout: Layout; start: number } {
  const problem = new ApiFailure('invalid-input', "This page's session is damaged: its payload has no valid layout.");
  if (container.length < 4) throw problem;
  const length = new DataView(container.buffer, container.byteOffset, container.byteLength).getUint32(0, true);
  if (4 + length > container.length) throw problem;
  let layout: Layout;
  try {
    layout = JSON.parse(decoder.decode(container.subarray(4, 4 + length))) as Layout;
  } catch {
    throw problem;
  }
  const { size, chunk, index, pieces } = layout;
  const ok =
    Number.isSafeInteger(size) &&
    size >= 0 &&
    Number.isSafeInteger(chunk) &&
    chunk > 0 &&
    Number.isSafeInteger(index) &&
    index >= 0 &&
    Array.isArray(pieces) &&
    pieces.length === Math.ceil(size / chunk) &&
    pieces.every((n) => Number.isSafeInteger(n) && n > 0) &&
    4 + length + index + pieces.reduce((s, n) => s + n, 0) === container.length;
  if (!ok) throw problem;
  return { layout, start: 4 + length };
}

/** Opens a container made by packSession (a clear failure when it is damaged). */
export function openPayload(container: Uint8Array): PagePayload {
  const { layout, start } = layoutOf(container);
  const { size, chunk } = layout;
  const offsets: number[] = [];
  let at = start + layout.index;
  for (const n of layout.pieces) {
    offsets.push(at);
    at += n;
  }
  const piece = (k: number) => container.subarray(offsets[k], offsets[k] + layout.pieces[k]);
  const expected = (k: number) => Math.min(chunk, size - k * chunk);
  const chunks: (Uint8Array | undefined)[] = new Array(layout.pieces.length);
  const check = (k: number, bytes: Uint8Array) => {
    if (bytes.length !== expected(k)) throw damaged(new Error(`part ${k + 1} has ${bytes.length} bytes, not ${expected(k)}`));
    return bytes;
  };
  const chunkAt = (k: number): Uint8Array => {
    let bytes = chunks[k];
    if (!bytes) {
      try {
        bytes = gunzipSync(piece(k));
      } catch (e) {
        throw damaged(e);
      }
      chunks[k] = bytes = check(k, bytes);
    }
    return bytes;
  };
  return {
    size,
    index: layout.index ? container.subarray(start, start + layout.index) : null,
    read(from, to) {
      from = Math.max(0, from);
      to = Math.min(to, size);
      if (to <= from) return new Uint8Array(0);
      const first = Math.floor(from / chunk);
      const last = Math.floor((to - 1) / chunk);
      if (first === last) return chunkAt(first).subarray(from - first * chunk, to - first * chunk);
      const out = new Uint8Array(to - from);
      for (let k = first; k <= last; k++) {
        const bytes = chunkAt(k);
        const lo = Math.max(from, k * chunk) - k * chunk;
        const hi = Math.min(to, (k + 1) * chunk) - k * chunk;
        out.set(bytes.subarray(lo, hi), k * chunk + lo - from);
      }
      return out;
    },
    async unpack(wanted) {
      const count = chunks.length;
      const ks = [...new Set(wanted.map((k) => (k < 0 ? count + k : k)))].filter((k) => k >= 0 && k < count && !chunks[k]);
      const unpacked = await Promise.all(ks.map((k) => gunzipBytes(piece(k))));
      ks.forEach((k, i) => {
        chunks[k] ??= check(k, unpacked[i]);
      });
    },
    async unpackRest() {
      for (let k = chunks.length - 1; k >= 0; k--) {
        if (chunks[k]) continue;
        const bytes = check(k, await gunzipBytes(piece(k)));
        chunks[k] ??= bytes;
      }
    },
  };
}
