/**
 * A small seeded pseudo-random generator (sfc32) so every generated fixture is reproducible from
 * its seed. Not cryptographic; only for test data.
 */
export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max] (inclusive). */
  int(min: number, max: number): number;
  /** True with probability p. */
  chance(p: number): boolean;
  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T;
  /** n lowercase hex characters. */
  hex(n: number): string;
  /** n pseudo-random bytes. */
  bytes(n: number): Uint8Array;
}

/** Creates a generator from a 32-bit seed; the same seed always yields the same sequence. */
export function createRng(seed: number): Rng {
  let a = 0x9e3779b9 ^ seed,
    b = 0x243f6a88 ^ (seed << 7),
    c = 0xb7e15162 ^ (seed >>> 3),
    d = 1;
  const u32 = (): number => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    const t = (a + b + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) >>> 0;
    c = (c + t) >>> 0;
    return t;
  };
  for (let i = 0; i < 12; i++) u32();
  const next = (): number => u32() / 4294967296;
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick: (items) => items[Math.floor(next() * items.length)],
    hex(n) {
      let s = '';
      while (s.length < n) s += u32().toString(16).padStart(8, '0');
      return s.slice(0, n);
    },
    bytes(n) {
      const out = new Uint8Array(n);
      let i = 0;
      for (; i + 4 <= n; i += 4) {
        const v = u32();
        out[i] = v;
        out[i + 1] = v >>> 8;
        out[i + 2] = v >>> 16;
        out[i + 3] = v >>> 24;
      }
      for (; i < n; i++) out[i] = u32();
      return out;
    },
  };
}
