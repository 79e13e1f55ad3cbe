// The versions of each session in the space (docs/sync-format.md, "Versions and tips"): segments
// are edges base → id; a tip is a version nothing builds on. Pure, over the catalog's headers.
import type { PackHeader, Segment, TrashRecord } from './pack.ts';

/** A segment and where its bytes are: the pack's name and the byte offset among its segments. */
export interface PlacedSegment extends Segment {
  pack: string;
  index: number;
}

export interface Version {
  size: number;
  id: string;
}

export interface SessionGraph {
  key: string;
  /** A path hint (the first one a segment carried). */
  path?: string;
  /** Versions by id (the empty version excluded). */
  versions: Map<string, Version>;
  /** Segments ending at each version id. */
  incoming: Map<string, PlacedSegment[]>;
  /** How many segments start at each version id. */
  outgoing: Map<string, number>;
  /** Tips not trashed, largest first then by id (a stable order on every device). */
  tips: Version[];
}

/** Builds every session's graph from the listed packs' headers. */
export function buildGraphs(packs: Map<string, PackHeader>, trash: TrashRecord[]): Map<string, SessionGraph> {
  const graphs = new Map<string, SessionGraph>();
  const names = [...packs.keys()].sort();
  for (const name of names) {
    const header = packs.get(name)!;
    header.segments.forEach((s, index) => {
      if (s.to <= s.from) return;
      let g = graphs.get(s.key);
      if (!g) {
        g = { key: s.key, path: s.path, versions: new Map(), incoming: new Map(), outgoing: new Map(), tips: [] };
        graphs.set(s.key, g);
      }
      g.path ??= s.path;
      g.versions.set(s.id, { size: s.to, id: s.id });
      const into = g.incoming.get(s.id) ?? [];
      into.push({ ...s, pack: name, index });
      g.incoming.set(s.id, into);
      g.outgoing.set(s.base, (g.outgoing.get(s.base) ?? 0) + 1);
    });
  }
  const trashed = new Set(trash.map((t) => `${t.key}\n${t.size}\n${t.id}`));
  for (const g of graphs.values()) {
    g.tips = [...g.versions.values()]
      .filter((v) => !g.outgoing.get(v.id) && !trashed.has(`${g.key}\n${v.size}\n${v.id}`))
      .sort((a, b) => b.size - a.size || (a.id < b.id ? -1 : 1));
  }
  return graphs;
}

/**
 * The segments leading from the empty version to `tip`, in order, each from a reachable base.
 * Null when some segment on the way is missing (a pack not listed yet).
 */
export function pathTo(g: SessionGraph, tip: Version, emptyId: string): PlacedSegment[] | null {
  const path: PlacedSegment[] = [];
  let at = tip.id;
  let size = tip.size;
  const reach = new Map<string, boolean>();
  const reachable = (id: string, sz: number): boolean => {
    if (sz === 0) return id === emptyId;
    const known = reach.get(id);
    if (known !== undefined) return known;
    reach.set(id, false);
    const ok = (g.incoming.get(id) ?? []).some((s) => s.to === sz && reachable(s.base, s.from));
    reach.set(id, ok);
    return ok;
  };
  while (size > 0) {
    const s = (g.incoming.get(at) ?? []).find((x) => x.to === size && reachable(x.base, x.from));
    if (!s) return null;
    path.push(s);
    at = s.base;
    size = s.from;
  }
  return at === emptyId ? path.reverse() : null;
}

/** Every version on the path (sizes and ids), the empty one included. */
export function versionsOn(path: PlacedSegment[], emptyId: string): Version[] {
  return [{ size: 0, id: emptyId }, ...path.map((s) => ({ size: s.to, id: s.id }))];
}
