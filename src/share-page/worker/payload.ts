// The page's payload back to session bytes: base64 parts → (age: decrypt.ts) → gunzip. Runs in the
// page's own worker, so a 50 MB session never blocks the page's main thread.
import { base64Bytes } from '../../worker/image-bytes.ts';
import { ApiFailure } from '../../worker/protocol.ts';

/** Bytes of one base64 part (the platform's decoder where it exists, else atob). */
export const decodePart = base64Bytes;

/** The parts joined into one array. */
export function joinParts(parts: readonly Uint8Array[]): Uint8Array {
  let size = 0;
  for (const p of parts) size += p.length;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Session bytes from gzip bytes, through the platform's DecompressionStream. */
export async function gunzip(bytes: Uint8Array): Promise<Uint8Array> {
  try {
    const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('gzip'));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  } catch (e) {
    throw new ApiFailure(
      'invalid-input',
      `This page's session is damaged: its compressed data does not unpack (${e instanceof Error ? e.message : String(e)}).`,
    );
  }
}
