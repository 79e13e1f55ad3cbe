// The page's payload from its base85 parts (then, for an encrypted page, decrypt.ts; then the
// container of src/worker/share/page-payload.ts). Runs in the page's own worker, so a 50 MB session
// never blocks the page's main thread.
import { fromBase85 } from '../../core/share/base85.ts';

/** Bytes of one base85 part (src/core/share/base85.ts; the page's worker block too). */
export function decodePart(text: string): Uint8Array {
  return fromBase85(text);
}

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
