// Keeping the search index's segments small (library-index.ts, after a sync): segments no manifest
// entry refers to are removed, and once most of the segments' bytes are dead (records of rebuilt or
// deleted sessions) the live records are copied into new segments and the old ones removed.
import type { Disk } from '../../storage/types.ts';
import { createSegmentWriter, listSegments, type Manifest, type ManifestEntry, readRaw, recordsOf, removeSegment } from './segments.ts';

// Dead bytes beyond this share of the segments are compacted away.
const DEAD_SHARE = 0.5;

/** What the index in memory hears: a record that moved to a new segment; `release`: close the open segments (they are about to be removed); `write`: writes the whole manifest. */
export interface TidyListener {
  moved(id: string, entry: ManifestEntry): void;
  release(): void;
  write(manifest: Manifest): Promise<void>;
}

/** Removes unreferenced segments; copies live records out of mostly-dead segments (`manifest` is updated and written). */
export async function tidySegments(disk: Disk, manifest: Manifest, index: TidyListener): Promise<void> {
  const live = new Map<string, number>();
  for (const e of Object.values(manifest.sessions))
    for (const ref of recordsOf(e)) live.set(ref.seg, (live.get(ref.seg) ?? 0) + (ref.w[1] - ref.w[0]) + (ref.r[1] - ref.r[0]) + (ref.t[1] - ref.t[0]));
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
  // Each record under the key `<id>\n<its number>` (a part's deltas move with it).
  for (const e of Object.values(manifest.sessions))
    for (const [k, ref] of recordsOf(e).entries()) {
      const raw = await readRaw(disk, ref);
      writer.addRaw(`${e.meta.id}\n${k}`, raw.w, raw.r, raw.t);
    }
  const placed = await writer.close();
  for (const [id, e] of Object.entries(manifest.sessions)) {
    const [ref, ...more] = recordsOf(e).map((_, k) => placed.get(`${id}\n${k}`)!);
    manifest.sessions[id] = { ...e, ref, ...(more.length ? { more } : {}) };
    index.moved(id, manifest.sessions[id]);
  }
  await index.write(manifest);
  index.release();
  for (const seg of used) {
    await removeSegment(disk, seg.name);
  }
}
