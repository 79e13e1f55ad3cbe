// A small LZ77 byte compressor (the LZ4 block layout: a token of literal and match lengths,
// the literals, a 2-byte offset), for the index's text chunks. Deflate (fflate, level 1) was the
// largest single cost of indexing at import; this is several times faster for about 1.5× its size,
// which the index's budget on disk allows. Output: the input's length (varint), then the sequences.
// Damage is caught by the caller's checksum; a malformed input throws or returns garbage, never loops.

const HASH_BITS = 14;
const MIN_MATCH = 4;
const MAX_OFFSET = 65535;
// Positions are stored offset by a generation that grows with every call, so the table needs no clearing.
const table = new Int32Array(1 << HASH_BITS);
let generation = 0;

/** Compresses bytes. */
export function compress(src: Uint8Array): Uint8Array {
  const n = src.length;
  const out = new Uint8Array(n + Math.ceil(n / 255) + 16);
  let o = 0;
  let v = n;
  while (v >= 128) {
    out[o++] = (v & 127) | 128;
    v >>>= 7;
  }
  out[o++] = v;
  if (generation > 0x7fffffff - n - 2 * MAX_OFFSET) {
    table.fill(0);
    generation = 0;
  }
  const gen = generation + MAX_OFFSET + 1;
  generation = gen + n;
  const length = (len: number) => {
    while (len >= 255) {
      out[o++] = 255;
      len -= 255;
    }
    out[o++] = len;
  };
  const emit = (anchor: number, end: number, offset: number, match: number) => {
    const lit = end - anchor;
    const m = match - MIN_MATCH;
    out[o++] = (Math.min(lit, 15) << 4) | (match ? Math.min(m, 15) : 0);
    if (lit >= 15) length(lit - 15);
    // Most literal runs are a few bytes: copied by hand, no view made for each (a view costs more than the copy).
    if (lit > 64) {
      out.set(src.subarray(anchor, end), o);
      o += lit;
    } else for (let k = anchor; k < end; k++) out[o++] = src[k];
    if (!match) return;
    out[o++] = offset & 255;
    out[o++] = offset >> 8;
    if (m >= 15) length(m - 15);
  };
  let anchor = 0;
  let i = 0;
  const last = n - MIN_MATCH - 1;
  const view = new DataView(src.buffer, src.byteOffset, src.byteLength);
  while (i < last) {
    const seq = view.getInt32(i, true);
    const h = Math.imul(seq, 0x9e3779b1) >>> (32 - HASH_BITS);
    const ref = table[h] - gen;
    table[h] = i + gen;
    if (ref >= 0 && i - ref <= MAX_OFFSET && view.getInt32(ref, true) === seq) {
      let m = i + MIN_MATCH;
      let r = ref + MIN_MATCH;
      // Four bytes at a time, then the last few one by one.
      while (m + 4 <= n && view.getInt32(m, true) === view.getInt32(r, true)) {
        m += 4;
        r += 4;
      }
      while (m < n && src[m] === src[r]) {
        m++;
        r++;
      }
      emit(anchor, i, i - ref, m - i);
      i = anchor = m;
    } else i += 1 + ((i - anchor) >> 6);
  }
  emit(anchor, n, 0, 0);
  return out.slice(0, o);
}

/** Decompresses what `compress` made (throws on input that does not hold together). */
export function decompress(src: Uint8Array): Uint8Array {
  let i = 0;
  let n = 0;
  for (let shift = 0; ; shift += 7) {
    if (i >= src.length || shift > 28) throw new Error('lz: bad length');
    const b = src[i++];
    n += (b & 127) * 2 ** shift;
    if (b < 128) break;
  }
  const out = new Uint8Array(n);
  let o = 0;
  const length = (len: number) => {
    if (len < 15) return len;
    for (;;) {
      if (i >= src.length) throw new Error('lz: truncated');
      const b = src[i++];
      len += b;
      if (b < 255) return len;
    }
  };
  while (i < src.length) {
    const token = src[i++];
    const lit = length(token >> 4);
    if (i + lit > src.length || o + lit > n) throw new Error('lz: literals');
    // Most literal runs are a few bytes: copied by hand, no view made for each.
    if (lit > 32) {
      out.set(src.subarray(i, i + lit), o);
      i += lit;
      o += lit;
    } else for (const end = i + lit; i < end; ) out[o++] = src[i++];
    if (i >= src.length) break;
    if (i + 2 > src.length) throw new Error('lz: offset');
    const offset = src[i] | (src[i + 1] << 8);
    i += 2;
    const match = length(token & 15) + MIN_MATCH;
    let r = o - offset;
    if (offset === 0 || r < 0 || o + match > n) throw new Error('lz: match');
    for (const end = o + match; o < end; ) out[o++] = out[r++];
  }
  if (o !== n) throw new Error('lz: short');
  return out;
}
