// Keeping the search index's segments small (library-index.ts, after a sync): segments no manifest
// entry refers to are removed, and once most of the segments' bytes are dead (records of rebuilt or
// deleted sessions) the live records are copied into new segments and the old ones removed.
import type { Disk } from '../../storage/types.ts';
import { createSegmentWriter, listSegments, type Manifest, type ManifestEntry, readRaw, removeSegment, writeManifest } from './segments.ts';

// Dead bytes beyond this share of the segments are compacted away.
const DEAD_SHARE = 0.5;

/** What the index in memory hears: a record that moved to a new segment; `release`: close the open segments (they are about to be removed). */
export interface TidyListener {
  moved(id: string, entry: ManifestEntry): void;
  release(): void;
}

/** Removes unreferenced segments; copies live records out of mostly-dead segments (`manifest` is updated and written). */
export async function tidySegments(disk: Disk, manifest: Manifest, index: TidyListener): Promise<void> {
  const live = new Map<string, number>();
  for (const e of Object.values(manifest.sessions))
    live.set(e.ref.seg, (live.get(e.ref.seg) ?? 0) + (e.ref.w[1] - e.ref.w[0]) + (e.ref.r[1] - e.ref.r[0]) + (e.ref.t[1] - e.ref.t[0]));
  const segs = await listSegments(disk);
  for (const seg of segs) {
    if (live.has(seg.name)) continue;
    await removeSegment(disk, seg.name);
  }
  const used = segs.filter((x) => live.has(x.name));
  const size = used.reduce((n, x) => n + x.size, 0);
  const dead = size - [...live.values()].reduce((n, x) => n + x, 0);
  if (dead <= DEAD_SHARE * size || dead < 1024 * 1024) return;
  const writer = createSegmentWriter(disk);
  for (const e of Object.values(manifest.sessions)) {
    const raw = await readRaw(disk, e.ref);
    writer.addRaw(e.meta.id, raw.w, raw.r, raw.t);
  }
  for (const [id, ref] of await writer.close()) {
    manifest.sessions[id] = { meta: manifest.sessions[id].meta, ref };
    index.moved(id, manifest.sessions[id]);
  }
  await writeManifest(disk, manifest);
  index.release();
  for (const seg of used) {
    await removeSegment(disk, seg.name);
  }
}
