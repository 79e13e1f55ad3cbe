// Applying other devices' versions to the copies here, with the append-aware import rules
// (docs/sync-format.md): identical or ahead → nothing; a prefix → append the rest; unrelated →
// a new session, or a variant beside the copy it diverged from. Nothing here is written over.
import { concat, sameBytes } from './bytes.ts';
import type { CopyIds } from './copy-ids.ts';
import { pathTo, type PlacedSegment, type SessionGraph, type Version } from './graph.ts';
import { readPack, type Round } from './round.ts';
import { SyncError, type ApplyOutcome } from './types.ts';

async function segmentBytes(r: Round, s: PlacedSegment): Promise<Uint8Array> {
  const pack = await readPack(r, s.pack);
  const found = pack.segments[s.index];
  if (!found || found.id !== s.id || found.base !== s.base)
    throw new SyncError('tampered', `${s.pack}: its segments differ from its header; nothing was applied`, { object: s.pack });
  return found.bytes;
}

/** Whether a copy is `tip` or ahead of it (a copy known to hold it and only grown since is not hashed again). */
async function holds(r: Round, c: CopyIds, tip: Version): Promise<boolean> {
  if (c.copy.size < tip.size) return false;
  const known = r.state.known[c.copy.copy];
  if (known && known.size === tip.size && known.id === tip.id) return true;
  return (await c.at(tip.size)) === tip.id;
}

/** The bytes that extend copy `c` to the end of `path`, or null when `c` is not a prefix of it. */
async function extension(r: Round, c: CopyIds, path: PlacedSegment[]): Promise<Uint8Array | null> {
  const size = c.copy.size;
  const i = path.findIndex((s) => s.from <= size && size < s.to);
  if (i < 0) return null;
  const seg = path[i];
  if ((await c.at(seg.from)) !== seg.base) return null;
  const first = await segmentBytes(r, seg);
  if (size > seg.from) {
    const mine = await r.deps.local.read(c.copy.copy, seg.from, size);
    if (!sameBytes(mine, first.subarray(0, size - seg.from))) return null;
  }
  const rest = [first.subarray(size - seg.from)];
  for (const s of path.slice(i + 1)) rest.push(await segmentBytes(r, s));
  return concat(rest);
}

function record(r: Round, key: string, copy: string, outcome: ApplyOutcome): void {
  r.report.applied.push({ key, copy, outcome });
  r.emit({ type: 'applied', key, copy, outcome });
}

/**
 * A pack whose header was read from its first bytes but which does not open whole: refused (as the
 * catalog refuses one), out of the catalog, and read whole again next round.
 */
function refuse(r: Round, error: SyncError): void {
  const name = error.object!;
  if (name in r.state.refused) return;
  r.state.refused[name] = error.message;
  delete r.state.packs[name];
  r.report.refused.push({ object: name, message: error.message });
  r.emit({ type: 'error', error });
}

/** Brings every tip of session `g` to this device (false when one cannot be built yet); `copies` grows as copies are made. */
export async function applyTips(
  r: Round,
  g: SessionGraph,
  copies: CopyIds[],
  emptyId: string,
  make: (copy: string, size: number) => CopyIds,
): Promise<boolean> {
  let all = true;
  for (const tip of g.tips) {
    r.signal?.throwIfAborted();
    try {
      if (!(await applyTip(r, g, tip, copies, emptyId, make))) all = false;
    } catch (error) {
      if (!(error instanceof SyncError && error.code === 'tampered' && error.object)) throw error;
      refuse(r, error);
      all = false;
    }
  }
  return all;
}

// One tip: nothing when a copy holds it; else appended to the copy it extends, or a new copy.
async function applyTip(
  r: Round,
  g: SessionGraph,
  tip: Version,
  copies: CopyIds[],
  emptyId: string,
  make: (copy: string, size: number) => CopyIds,
): Promise<boolean> {
  const { local } = r.deps;
  for (const c of copies) if (await holds(r, c, tip)) return true;
  const path = pathTo(g, tip, emptyId);
  if (!path) return false; // a pack on the way is not listed yet
  for (const c of copies) {
    if (c.copy.size >= tip.size) continue;
    const bytes = await extension(r, c, path);
    if (!bytes) continue;
    try {
      await local.append(c.copy.copy, c.copy.size, bytes);
    } catch (error) {
      throw new SyncError('local', `Could not append to ${c.copy.copy}: ${(error as Error).message}`, { object: c.copy.copy, cause: error });
    }
    c.grew(tip.size);
    r.state.known[c.copy.copy] = { size: tip.size, id: tip.id };
    record(r, g.key, c.copy.copy, 'appended');
    return true;
  }
  const parts: Uint8Array[] = [];
  for (const s of path) parts.push(await segmentBytes(r, s));
  const variantOf = copies[0]?.copy.copy;
  let copy: string;
  try {
    copy = await local.create(g.key, concat(parts), { path: g.path, variantOf });
  } catch (error) {
    throw new SyncError('local', `Could not create a copy of ${g.key}: ${(error as Error).message}`, { object: g.key, cause: error });
  }
  copies.push(make(copy, tip.size));
  r.state.known[copy] = { size: tip.size, id: tip.id };
  record(r, g.key, copy, variantOf ? 'variant' : 'added');
  return true;
}
