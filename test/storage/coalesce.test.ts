// Writes gathered from small chunks (storage/chunks.ts `coalesce`), as the OPFS disk writes files:
// the same bytes in the same order, in far fewer writes, none held uncopied across chunks.
import { expect, test } from 'vitest';
import { coalesce, concatBytes } from '../../src/storage/chunks.ts';
import type { ByteChunks } from '../../src/storage/types.ts';

/** Byte-for-byte equality (vitest's deep equality walks a 2 MB array one element at a time). */
const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && Buffer.compare(a, b) === 0;

async function collect(chunks: ByteChunks): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for await (const c of chunks) out.push(c.slice());
  return out;
}

/** `count` chunks of `size` bytes, each filled with its number; `reuse`: one buffer for all (as a stream may). */
async function* pieces(count: number, size: (i: number) => number, reuse = false): ByteChunks {
  const shared = new Uint8Array(1 << 16);
  for (let i = 0; i < count; i++) {
    const n = size(i);
    const chunk = reuse && n <= shared.length ? shared.subarray(0, n) : new Uint8Array(n);
    chunk.fill(i & 255);
    yield chunk;
  }
}

test('small chunks become writes of up to the size, in order, byte for byte', async () => {
  const size = (i: number) => 1 + ((i * 7919) % 3000);
  const whole = concatBytes(await collect(pieces(1500, size)));
  const writes = await collect(coalesce(pieces(1500, size), 64 * 1024));
  expect(same(concatBytes(writes), whole)).toBe(true);
  expect(writes.length).toBeLessThan(1500 / 20);
  for (const w of writes) expect(w.length).toBeLessThanOrEqual(64 * 1024);
});

test('a producer that reuses its buffer still gives its bytes (none is held uncopied)', async () => {
  const whole = concatBytes(await collect(pieces(300, () => 1000)));
  expect(
    concatBytes(
      await collect(
        coalesce(
          pieces(300, () => 1000, true),
          8192,
        ),
      ),
    ),
  ).toEqual(whole);
});

test('a big chunk passes as it is, after what was gathered; one small file is one write', async () => {
  const big = new Uint8Array(5000).fill(9);
  const input = async function* () {
    yield new Uint8Array(10).fill(1);
    yield big;
    yield new Uint8Array(20).fill(2);
  };
  const writes: Uint8Array[] = [];
  for await (const w of coalesce(input(), 4096)) writes.push(w);
  expect(writes.map((w) => w.length)).toEqual([10, 5000, 20]);
  expect(writes[1]).toBe(big);
  expect(
    (
      await collect(
        coalesce(
          pieces(1, () => 100),
          4096,
        ),
      )
    ).map((w) => w.length),
  ).toEqual([100]);
  expect(await collect(coalesce(pieces(0, () => 1)))).toEqual([]);
});
