// Deterministic entry ids for the converted session: a Claude `uuid` gives its first 8 hex digits
// (pi's own id shape), anything else (a line without a uuid, the second tool result of one line)
// an 8-hex FNV-1a hash of a key built from the source. Collisions are resolved in file order, so
// the ids of earlier lines never depend on later ones (appending to the source keeps them).

/** 32-bit FNV-1a of a string's UTF-16 code units, as 8 lowercase hex digits. */
export function fnv8(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

const HEX8 = /^[0-9a-f]{8}$/;

/** Hands out unique ids, each derived from its seed. */
export class IdAllocator {
  private readonly used = new Set<string>();

  /** The id for a seed: the uuid's first 8 hex digits when it is one, else a hash; unique among those given. */
  take(seed: string): string {
    const head = seed.slice(0, 8).toLowerCase();
    let id = HEX8.test(head) ? head : fnv8(seed);
    for (let n = 1; this.used.has(id); n++) id = fnv8(`${seed}#${n}`);
    this.used.add(id);
    return id;
  }
}
