// The page's payload from its base64 parts (then, for an encrypted page, decrypt.ts; then the
// container of src/worker/share/page-payload.ts). Runs in the page's own worker, so a 50 MB session
// never blocks the page's main thread.

/** Bytes of one base64 part: the platform's decoder where it exists (Chromium 140+, Firefox 133+, Safari 18.2+), else atob. */
export function decodePart(text: string): Uint8Array {
  const fromBase64 = (Uint8Array as { fromBase64?: (s: string) => Uint8Array }).fromBase64;
  if (typeof fromBase64 === 'function') return fromBase64(text);
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
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
