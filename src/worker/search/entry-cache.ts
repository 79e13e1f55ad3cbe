// The entry documents of recently shown sessions, kept in memory up to a number of characters (least
// recently used go first), each with its documents' folded text made when first needed.
import type { EntryDoc } from './extract.ts';
import { foldText } from './tokens.ts';

/** A session's entry documents as the cache holds them. */
export interface CachedDocs {
  docs: EntryDoc[];
  /** Each document's folded text (tokens.ts `foldText`), made when first needed. */
  lower: Array<string | undefined>;
  chars: number;
}

/** An LRU of sessions' entry documents, bounded by their characters. */
export function createEntryCache(maxChars: number) {
  const cache = new Map<string, CachedDocs>();
  let chars = 0;
  return {
    /** A session's documents (now the most recently used), or undefined. */
    get(id: string): CachedDocs | undefined {
      const hit = cache.get(id);
      if (hit) {
        cache.delete(id);
        cache.set(id, hit);
      }
      return hit;
    },
    /** Keeps a session's documents, dropping the least recently used beyond the bound. */
    keep(id: string, docs: EntryDoc[]): CachedDocs {
      this.drop(id);
      const c: CachedDocs = { docs, lower: [], chars: docs.reduce((n, d) => n + d.text.length, 0) };
      cache.set(id, c);
      chars += c.chars;
      for (const [old, o] of cache) {
        if (chars <= maxChars || old === id) break;
        cache.delete(old);
        chars -= o.chars;
      }
      return c;
    },
    drop(id: string): void {
      const c = cache.get(id);
      if (c) chars -= c.chars;
      cache.delete(id);
    },
  };
}

/** The folded text of a cached session's document i (made once). */
export const lowerOf = (c: CachedDocs) => (i: number) => {
  let l = c.lower[i];
  if (l === undefined) l = c.lower[i] = foldText(c.docs[i].text);
  return l;
};
