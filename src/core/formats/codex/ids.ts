// Deterministic entry ids for a converted Codex rollout: 8 hex chars (pi's shape, session-format.md
// §1.4) hashed from the session id, the source line and the entry's place among that line's
// entries. The same file converts to the same ids, and lines appended later never change the ids
// of earlier ones (collisions are settled in file order, by rehashing with a counter).

/** FNV-1a (32 bit) of a string's UTF-16 code units, as 8 lowercase hex chars. */
function fnv1a(text: string, seed = 0x811c9dc5): string {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

/** Hands out unique ids for one conversion. */
export class IdMaker {
  private readonly used = new Set<string>();
  constructor(private readonly sessionId: string) {}

  /** The id of the `k`-th entry made from source line `line`. */
  make(line: number, k = 0): string {
    const key = `${this.sessionId}:${line}:${k}`;
    let id = fnv1a(key);
    for (let n = 1; this.used.has(id); n++) id = fnv1a(`${key}#${n}`);
    this.used.add(id);
    return id;
  }
}

/** A stable short hash of any text (for ids the source does not carry, e.g. a web search's call id). */
export function shortHash(text: string): string {
  return fnv1a(text);
}
