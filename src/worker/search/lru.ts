// A least-recently-used map bounded by the sizes of what it holds: the facts of sessions a query
// looked at, and the text chunks of hits it showed, kept for the next keystrokes.

/** An LRU of values by key, bounded by the sum of `sizeOf` over them. */
export function createLru<T>(max: number, sizeOf: (v: T) => number) {
  const map = new Map<string, { v: T; n: number }>();
  let used = 0;
  const lru = {
    /** A value (now the most recently used), or undefined. */
    get(key: string): T | undefined {
      const hit = map.get(key);
      if (!hit) return undefined;
      map.delete(key);
      map.set(key, hit);
      return hit.v;
    },
    /** Keeps a value, dropping the least recently used beyond the bound (never the one just kept). */
    keep(key: string, v: T): T {
      lru.drop(key);
      const n = sizeOf(v);
      map.set(key, { v, n });
      used += n;
      for (const [old, o] of map) {
        if (used <= max || old === key) break;
        map.delete(old);
        used -= o.n;
      }
      return v;
    },
    drop(key: string): void {
      const hit = map.get(key);
      if (hit) used -= hit.n;
      map.delete(key);
    },
    /** Drops every key starting with `prefix`. */
    dropPrefix(prefix: string): void {
      for (const key of [...map.keys()]) if (key.startsWith(prefix)) lru.drop(key);
    },
  };
  return lru;
}
