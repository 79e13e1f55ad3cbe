/** Image types recognised by their first bytes. Only these are ever handed to the page as pictures. */
const SIGNATURES: Array<{ type: string; test: (b: Uint8Array) => boolean }> = [
  { type: 'image/png', test: (b) => b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47 },
  { type: 'image/jpeg', test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { type: 'image/gif', test: (b) => b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x38 },
  { type: 'image/webp', test: (b) => ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'WEBP' },
  { type: 'image/avif', test: (b) => ascii(b, 4, 4) === 'ftyp' && /^avi[fs]$/.test(ascii(b, 8, 4)) },
  { type: 'image/bmp', test: (b) => b[0] === 0x42 && b[1] === 0x4d },
  { type: 'image/x-icon', test: (b) => b[0] === 0 && b[1] === 0 && b[2] === 1 && b[3] === 0 },
];

function ascii(bytes: Uint8Array, at: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(at, at + length));
}

/**
 * The raster image type the bytes really are, or null. The declared mimeType is not trusted: a
 * file may call HTML or SVG "image/png"; the page only gets Blobs whose bytes are a raster image.
 */
export function sniffImageType(bytes: Uint8Array): string | null {
  if (bytes.length < 12) return null;
  return SIGNATURES.find((s) => s.test(bytes))?.type ?? null;
}

/** Bytes of plain standard base64: the platform's decoder where it exists (Chromium 140+, Firefox 133+, Safari 18.2+), else atob. Throws on anything else. */
export function base64Bytes(text: string): Uint8Array {
  const fromBase64 = (Uint8Array as { fromBase64?: (s: string) => Uint8Array }).fromBase64;
  if (typeof fromBase64 === 'function') return fromBase64(text);
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Decodes base64 (standard or URL alphabet, whitespace tolerated); null when it is not base64. */
export function decodeBase64(data: string): Uint8Array | null {
  try {
    return base64Bytes(data.replace(/\s+/g, '').replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    return null;
  }
}
