// Base85 for binary inside an HTML page (the one-file share page): 5 characters per 4
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

/** Digit of each UTF-16 code unit (255: not a digit), so a decode needs no range check per character. */
const DIGIT = new Uint8Array(65_536).fill(255);
for (let i = 0; i < BASE85_ALPHABET.length; i++) DIGIT[BASE85_ALPHABET.charCodeAt(i)] = i;
const BYTE_DIGIT = DIGIT.slice(0, 256);
const utf8 = new TextEncoder();
const CODE = Uint8Array.from(BASE85_ALPHABET, (c) => c.charCodeAt(0));
const ascii = new TextDecoder();

/** The base85 text of bytes. */
export function toBase85(bytes: Uint8Array): string {
  const full = bytes.length - (bytes.length % 4);
  const rest = bytes.length - full;
  const out = new Uint8Array((full / 4) * 5 + (rest ? rest + 1 : 0));
  let o = 0;
  for (let i = 0; i < full; i += 4) {
    // Below 2^32, so the quotients are exact in doubles and the last one fits in int32.
    const n = bytes[i] * 0x1000000 + ((bytes[i + 1] << 16) | (bytes[i + 2] << 8) | bytes[i + 3]);
    const q1 = Math.floor(n / 85);
    const q2 = (q1 / 85) | 0;
    const q3 = (q2 / 85) | 0;
    const q4 = (q3 / 85) | 0;
    out[o + 4] = CODE[n - q1 * 85];
    out[o + 3] = CODE[q1 - q2 * 85];
    out[o + 2] = CODE[q2 - q3 * 85];
    out[o + 1] = CODE[q3 - q4 * 85];
    out[o] = CODE[q4];
    o += 5;
  }
  if (rest) {
    let n = 0;
    for (let k = 0; k < 4; k++) n = n * 256 + (k < rest ? bytes[full + k] : 0);
    const digits = new Uint8Array(5);
    for (let k = 4; k >= 0; k--) {
      const d = n % 85;
      digits[k] = CODE[d];
      n = (n - d) / 85;
    }
    out.set(digits.subarray(0, rest + 1), o);
  }
  return ascii.decode(out);
}

function badCharacter(text: string, from: number): never {
  for (let i = from; i < text.length; i++) if (DIGIT[text.charCodeAt(i)] === 255) throw new RangeError(`not a base85 character at ${i}`);
  throw new RangeError('base85 group out of range');
}

/** The bytes of base85 text (whitespace is not allowed); throws on a character outside the alphabet or a bad length. */
export function fromBase85(text: string): Uint8Array {
  const tail = text.length % 5;
  if (tail === 1) throw new RangeError('base85 text cannot end with a single character');
  const full = text.length - tail;
  const out = new Uint8Array((full / 5) * 4 + (tail ? tail - 1 : 0));
  // The text as bytes first (native, and ASCII is one byte each): typed-array reads beat charCodeAt.
  // Anything not ASCII becomes bytes of 0x80 and up, which are no digit.
  const codes = utf8.encode(text);
  if (codes.length !== text.length) badCharacter(text, 0);
  let o = 0;
  for (let i = 0; i < full; i += 5) {
    const a = BYTE_DIGIT[codes[i]];
    const b = BYTE_DIGIT[codes[i + 1]];
    const c = BYTE_DIGIT[codes[i + 2]];
    const d = BYTE_DIGIT[codes[i + 3]];
    const e = BYTE_DIGIT[codes[i + 4]];
    if ((a | b | c | d | e) === 255) badCharacter(text, i);
    const n = (((a * 85 + b) * 85 + c) * 85 + d) * 85 + e;
    if (n > 0xffffffff) throw new RangeError(`base85 group out of range at ${i}`);
    out[o] = n >>> 24;
    out[o + 1] = n >>> 16;
    out[o + 2] = n >>> 8;
    out[o + 3] = n;
    o += 4;
  }
  if (tail) {
    let n = 0;
    for (let k = 0; k < 5; k++) {
      const d = k < tail ? DIGIT[text.charCodeAt(full + k)] : 84;
      if (d === 255) badCharacter(text, full);
      n = n * 85 + d;
    }
    if (n > 0xffffffff) throw new RangeError('base85 group out of range at the end');
    for (let k = 0; k < tail - 1; k++) out[o++] = n >>> (24 - 8 * k);
  }
  return out;
}
