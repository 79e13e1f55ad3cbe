// Prefix ids (docs/sync-format.md): a version of a session is (size, id), where the id hashes the
// SHA-256 of each full 1 MiB block and of the tail. Block hashes are cached per copy, so a grown
// file is checked by hashing at most its last block plus what is new.
import { concat, hex, sha256, utf8 } from './bytes.ts';

export const BLOCK = 1024 * 1024;

/** Block hashes (hex) of a copy's first `size` bytes' full blocks. */
export interface BlockCache {
  size: number;
  hashes: string[];
}

/** Reads bytes [start, end) of the copy. */
export type ReadRange = (start: number, end: number) => Promise<Uint8Array>;

function u64(n: number): Uint8Array {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, BigInt(n));
  return b;
}

function fromHex(h: string): Uint8Array {
  const out = new Uint8Array(h.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(h.slice(i * 2, i * 2 + 2), 16);
  return out;
}

async function idOf(size: number, blocks: string[], tail: Uint8Array): Promise<string> {
  const parts = [utf8('rs1'), u64(size), ...blocks.map(fromHex), await sha256(tail)];
  return hex(await sha256(concat(parts)));
}

/** The prefix id of bytes held in memory (a whole version). */
export async function prefixIdOf(bytes: Uint8Array): Promise<string> {
  const blocks: string[] = [];
  const full = Math.floor(bytes.length / BLOCK);
  for (let i = 0; i < full; i++) blocks.push(hex(await sha256(bytes.subarray(i * BLOCK, (i + 1) * BLOCK))));
  return idOf(bytes.length, blocks, bytes.subarray(full * BLOCK));
}

/**
 * Prefix ids of a copy at the given sizes (each ≤ the copy's size), reading through `read` and
 * extending `cache` (whose block hashes must be of this copy's bytes). Returns the new cache too.
 */
export async function prefixIds(read: ReadRange, sizes: number[], cache: BlockCache | undefined): Promise<{ ids: Map<number, string>; cache: BlockCache }> {
  const hashes = cache ? cache.hashes.slice() : [];
  const max = Math.max(0, ...sizes);
  const need = Math.floor(max / BLOCK);
  for (let i = hashes.length; i < need; i++) hashes.push(hex(await sha256(await read(i * BLOCK, (i + 1) * BLOCK))));
  const ids = new Map<number, string>();
  for (const size of sizes) {
    const full = Math.floor(size / BLOCK);
    const tail = size > full * BLOCK ? await read(full * BLOCK, size) : new Uint8Array(0);
    ids.set(size, await idOf(size, hashes.slice(0, full), tail));
  }
  return { ids, cache: { size: hashes.length * BLOCK, hashes } };
}

/** The id of the empty version. */
export const EMPTY_ID_PROMISE = (): Promise<string> => idOf(0, [], new Uint8Array(0));
