// Sending a copy's new bytes: the longest version of the space that the copy starts with is the
// base, and the bytes after it go as segments of at most SEGMENT_BYTES (never the whole file again).
import type { CopyIds } from './copy-ids.ts';
import type { SessionGraph, Version } from './graph.ts';
import type { Round } from './round.ts';
import type { PackWriter } from './writer.ts';

export const SEGMENT_BYTES = 4 * 1024 * 1024;

/** The largest version of `g` the copy starts with (the empty version when none). */
async function baseOf(r: Round, c: CopyIds, g: SessionGraph | undefined, emptyId: string): Promise<Version> {
  const known = r.state.known[c.copy.copy];
  if (g && known && known.size <= c.copy.size && g.versions.has(known.id) && (await c.at(known.size)) === known.id) {
    // the usual case: the copy grew from what the space has; a larger version may exist too
    const larger = [...g.versions.values()].filter((v) => v.size > known.size && v.size <= c.copy.size).sort((a, b) => b.size - a.size);
    for (const v of larger) if ((await c.at(v.size)) === v.id) return v;
    return known;
  }
  const candidates = g ? [...g.versions.values()].filter((v) => v.size <= c.copy.size).sort((a, b) => b.size - a.size) : [];
  for (const v of candidates) if ((await c.at(v.size)) === v.id) return v;
  return { size: 0, id: emptyId };
}

/** Puts what the space lacks of this copy (into `out`); gives whether the copy was already there. */
export async function sendCopy(r: Round, c: CopyIds, g: SessionGraph | undefined, emptyId: string, out: PackWriter): Promise<boolean> {
  const { copy } = c;
  const known = r.state.known[copy.copy];
  if (known && known.size === copy.size && g?.versions.has(known.id)) return true;
  if (copy.size === 0) return true;
  const id = await c.at(copy.size);
  if (g?.versions.has(id)) {
    r.state.known[copy.copy] = { size: copy.size, id };
    return true;
  }
  let base = await baseOf(r, c, g, emptyId);
  while (base.size < copy.size) {
    const to = Math.min(copy.size, base.size + SEGMENT_BYTES);
    const bytes = await r.deps.local.read(copy.copy, base.size, to);
    const next = { size: to, id: to === copy.size ? id : await c.at(to) };
    await out.segment({ key: copy.key, ...(copy.path ? { path: copy.path } : {}), from: base.size, to, base: base.id, id: next.id }, bytes);
    base = next;
  }
  r.state.known[copy.copy] = { size: copy.size, id };
  return false;
}
