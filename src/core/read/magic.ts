// What a file is when it is not text: the magic bytes of the formats people drop by mistake.

const ascii = (s: string) => Array.from(s, (c) => c.charCodeAt(0));
const KINDS: Array<{ what: string; at: number; bytes: number[] }> = [
  { what: 'a PNG image', at: 0, bytes: [0x89, ...ascii('PNG\r\n'), 0x1a, 0x0a] },
  { what: 'a JPEG image', at: 0, bytes: [0xff, 0xd8, 0xff] },
  { what: 'a GIF image', at: 0, bytes: ascii('GIF8') },
  { what: 'a WebP image', at: 8, bytes: ascii('WEBP') },
  { what: 'a PDF document', at: 0, bytes: ascii('%PDF-') },
  { what: 'a zip archive', at: 0, bytes: [0x50, 0x4b, 0x03, 0x04] },
  { what: 'a zstd-compressed file', at: 0, bytes: [0x28, 0xb5, 0x2f, 0xfd] },
  { what: 'a SQLite database', at: 0, bytes: [...ascii('SQLite format 3'), 0] },
];

/** "a PNG image" (…) when the bytes start like one of the binary formats above, else null. */
export function binaryKind(head: Uint8Array): string | null {
  for (const k of KINDS) {
    if (k.what === 'a WebP image' && !ascii('RIFF').every((b, i) => head[i] === b)) continue;
    if (head.length >= k.at + k.bytes.length && k.bytes.every((b, i) => head[k.at + i] === b)) return k.what;
  }
  return null;
}
