// Base85 for binary inside an HTML page (the one-file share page, issue 11): 5 characters per 4
// bytes (1.25×, where base64 is 1.33×), from an alphabet of printable ASCII without the characters
// that mean something to HTML or to a script's source: " & ' < > \ ` ^ | . So a block of it can sit
// inside a <script> element (nothing can close the element or open a comment) and the HTML parser
// reads it as one-byte text. Groups are big-endian, as in Ascii85; a last group of n < 4 bytes is
// written as n + 1 characters.

/** The 85 digits, in order. */
export const BASE85_ALPHABET = (() => {
  let out = '';
  for (let c = 0x21; c <= 0x7e; c++) if (!'"&\'<>\\`^|'.includes(String.fromCharCode(c))) out += String.fromCharCode(c);
  return out;
})();

const DIGIT = new Uint8Array(128).fill(255);
for (let i = 0; i < BASE85_ALPHABET.length; i++) DIGIT[BASE85_ALPHABET.charCodeAt(i)] = i;

const CODE = Uint8Array.from(BASE85_ALPHABET, (c) => c.charCodeAt(0));
const ascii = new TextDecoder();

/** The base85 text of bytes. */
export function toBase85(bytes: Uint8Array): string {
  const full = bytes.length - (bytes.length % 4);
  const rest = bytes.length - full;
  const out = new Uint8Array((full / 4) * 5 + (rest ? rest + 1 : 0));
  let o = 0;
  const put = (n: number, keep: number) => {
    for (let k = 4; k >= 0; k--) {
      if (k < keep) out[o + k] = CODE[n % 85];
      n = Math.floor(n / 85);
    }
    o += keep;
  };
  for (let i = 0; i < full; i += 4) put(bytes[i] * 0x1000000 + (bytes[i + 1] << 16) + (bytes[i + 2] << 8) + bytes[i + 3], 5);
  if (rest) {
    let n = 0;
    for (let k = 0; k < 4; k++) n = n * 256 + (k < rest ? bytes[full + k] : 0);
    put(n, rest + 1);
  }
  return ascii.decode(out);
}

/** The bytes of base85 text (whitespace is not allowed); throws on a character outside the alphabet or a bad length. */
export function fromBase85(text: string): Uint8Array {
  const tail = text.length % 5;
  if (tail === 1) throw new RangeError('base85 text cannot end with a single character');
  const full = text.length - tail;
  const out = new Uint8Array((full / 5) * 4 + (tail ? tail - 1 : 0));
  const digit = (i: number) => {
    const c = text.charCodeAt(i);
    const d = c < 128 ? DIGIT[c] : 255;
    if (d === 255) throw new RangeError(`not a base85 character at ${i}`);
    return d;
  };
  let o = 0;
  for (let i = 0; i < full; i += 5) {
    const n = (((digit(i) * 85 + digit(i + 1)) * 85 + digit(i + 2)) * 85 + digit(i + 3)) * 85 + digit(i + 4);
    if (n > 0xffffffff) throw new RangeError(`base85 group out of range at ${i}`);
    out[o++] = n >>> 24;
    out[o++] = (n >>> 16) & 255;
    out[o++] = (n >>> 8) & 255;
    out[o++] = n & 255;
  }
  if (tail) {
    let n = 0;
    for (let k = 0; k < 5; k++) n = n * 85 + (k < tail ? digit(full + k) : 84);
    if (n > 0xffffffff) throw new RangeError('base85 group out of range at the end');
    for (let k = 0; k < tail - 1; k++) out[o++] = (n >>> (24 - 8 * k)) & 255;
  }
  return out;
}
