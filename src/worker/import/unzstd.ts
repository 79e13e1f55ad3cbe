// Zstandard streams (Codex CLI can write its rollouts as `rollout-….jsonl.zst`), decoded with fzstd:
// pure JavaScript, no WebAssembly and no Node built-ins, so it runs in the worker as it is.
import { Decompress } from 'fzstd';
import { blobChunks } from '../../storage/chunks.ts';
import type { ByteChunks } from '../../storage/types.ts';

/** A zstd frame starts with 28 B5 2F FD (RFC 8878 §3.1.1). */
export function isZstd(head: Uint8Array): boolean {
  return head[0] === 0x28 && head[1] === 0xb5 && head[2] === 0x2f && head[3] === 0xfd;
}

/**
 * The decompressed bytes of a zstd file, as chunks, read a megabyte at a time. A stream cut short
 * or corrupt throws, with fzstd's reason (the caller names the file).
 */
export async function* unzstd(blob: Blob, signal?: AbortSignal, chunkSize = 1024 * 1024): ByteChunks {
  let out: Uint8Array[] = [];
  let ended = false;
  const d = new Decompress((data, final) => {
    if (data.length) out.push(data);
    if (final) ended = true;
  });
  for await (const chunk of blobChunks(blob, 0, chunkSize, signal)) {
    d.push(chunk);
    const ready = out;
    out = [];
    yield* ready;
  }
  d.push(new Uint8Array(0), true);
  yield* out;
  if (!ended) throw new Error('the zstd stream is cut off');
}
