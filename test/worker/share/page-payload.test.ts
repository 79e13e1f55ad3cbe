// The one-file page's container (src/worker/share/page-payload.ts): the session in chunks read back
// byte for byte by ranges (across chunk boundaries too), the envelope index of a big session the
// same as indexing the bytes, and a damaged container refused with a clear message.
import { gunzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { decodeEnvelopeIndex } from '../../../src/core/envelope/envelope-file.ts';
import { indexEnvelopes } from '../../../src/core/envelope/envelopes.ts';
import { CHUNK_BYTES, INDEX_FROM_BYTES, openPayload, packSession } from '../../../src/worker/share/page-payload.ts';
import { headerLine, messageLine } from '../../storage/helpers.ts';

const encoder = new TextEncoder();
/** Byte equality (vitest's deep equality walks a Uint8Array element by element: seconds for megabytes). */
const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));

/** A session of about `bytes` bytes (varied text, so it does not compress to nothing). */
function session(bytes: number): Uint8Array {
  const lines = [headerLine('big')];
  let size = lines[0].length;
  for (let i = 1; size < bytes; i++) {
    const text = Array.from({ length: 40 }, (_, k) => ((i * 7919 + k * 104729) >>> 0).toString(36)).join(' ');
    const line = messageLine(`e${i}`, i === 1 ? null : `e${i - 1}`, i % 2 ? 'user' : 'assistant', text);
    lines.push(line);
    size += line.length + 1;
  }
  return encoder.encode(lines.join('\n') + '\n');
}

describe('packSession / openPayload', () => {
  test('a small session: no index; every range reads back the same bytes', async () => {
    const bytes = session(300_000);
    const payload = openPayload(await packSession(bytes));
    expect(payload.size).toBe(bytes.length);
    expect(payload.index).toBeNull();
    expect(same(payload.read(0, bytes.length), bytes)).toBe(true);
    expect(same(payload.read(100, 2000), bytes.subarray(100, 2000))).toBe(true);
    expect(same(payload.read(bytes.length - 5, bytes.length + 50), bytes.subarray(bytes.length - 5))).toBe(true);
    expect(payload.read(10, 10).length).toBe(0);
  });

  test('a big session: chunks read across their boundaries, lazily or after unpackRest; its index is the one indexing gives', async () => {
    const bytes = session(INDEX_FROM_BYTES + CHUNK_BYTES + 12_345);
    const packed = await packSession(bytes);
    const payload = openPayload(packed);
    const edge = CHUNK_BYTES * 2;
    expect(same(payload.read(edge - 100, edge + 100), bytes.subarray(edge - 100, edge + 100))).toBe(true);
    expect(same(payload.read(CHUNK_BYTES - 1, CHUNK_BYTES * 4 + 1), bytes.subarray(CHUNK_BYTES - 1, CHUNK_BYTES * 4 + 1))).toBe(true);
    await payload.unpack([0, -1]);
    expect(same(payload.read(bytes.length - 100, bytes.length), bytes.subarray(bytes.length - 100))).toBe(true);
    await payload.unpackRest();
    expect(same(payload.read(0, bytes.length), bytes)).toBe(true);
    expect(payload.index).not.toBeNull();
    const read = (start: number, end: number) => bytes.subarray(start, end);
    const stored = decodeEnvelopeIndex(new Uint8Array(gunzipSync(payload.index as Uint8Array)), read);
    const fresh = indexEnvelopes(bytes);
    expect(stored).not.toBeNull();
    const { index } = stored!;
    expect(index.ids).toEqual(fresh.ids);
    expect(index.parentIds).toEqual(fresh.parentIds);
    expect(index.starts).toEqual(fresh.starts);
    expect(index.ends).toEqual(fresh.ends);
    expect(index.leafId).toBe(fresh.leafId);
    // Smaller than gzip of the whole plus the index would be at a fraction: the chunks cost little.
    expect(packed.length).toBeLessThan(bytes.length * 0.6);
  }, 60_000);

  test('a damaged container is refused with a message that says so', async () => {
    const packed = await packSession(session(50_000));
    expect(() => openPayload(packed.subarray(0, packed.length - 1))).toThrow(/damaged/);
    expect(() => openPayload(new Uint8Array([1, 2, 3]))).toThrow(/damaged/);
    const flipped = packed.slice();
    flipped[flipped.length - 20] ^= 0xff;
    expect(() => openPayload(flipped).read(0, 10)).toThrow(/damaged/);
  });
});
