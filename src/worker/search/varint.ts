// The byte layout of the index's binary records (part.ts, part-delta.ts): unsigned varints, length-prefixed bytes, f64.

/** A growable byte buffer of unsigned varints and raw bytes. */
export class Out {
  buf = new Uint8Array(4096);
  at = 0;
  room(n: number) {
    if (this.at + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.at + n));
    next.set(this.buf.subarray(0, this.at));
    this.buf = next;
  }
  uint(v: number) {
    this.room(10);
    while (v >= 128) {
      this.buf[this.at++] = (v % 128) | 128;
      v = Math.floor(v / 128);
    }
    this.buf[this.at++] = v;
  }
  bytes(b: Uint8Array) {
    this.uint(b.length);
    this.room(b.length);
    this.buf.set(b, this.at);
    this.at += b.length;
  }
  f64(v: number) {
    this.room(8);
    new DataView(this.buf.buffer).setFloat64(this.at, v, true);
    this.at += 8;
  }
  done = () => this.buf.slice(0, this.at);
}

export class In {
  at = 0;
  constructor(readonly buf: Uint8Array) {}
  uint(): number {
    let v = 0;
    let mul = 1;
    for (;;) {
      if (this.at >= this.buf.length) throw new Error('truncated');
      const b = this.buf[this.at++];
      v += (b & 127) * mul;
      if (b < 128) return v;
      mul *= 128;
    }
  }
  bytes(): Uint8Array {
    const n = this.uint();
    if (this.at + n > this.buf.length) throw new Error('truncated');
    const b = this.buf.subarray(this.at, this.at + n);
    this.at += n;
    return b;
  }
  f64(): number {
    if (this.at + 8 > this.buf.length) throw new Error('truncated');
    const v = new DataView(this.buf.buffer, this.buf.byteOffset).getFloat64(this.at, true);
    this.at += 8;
    return v;
  }
}
