// A session's family: the file stored under its header id and the variants kept beside it
// (`<id>~2`, `<id>~3`… when an import diverged from what was stored), as the files say.
import { sessionPath, variantId } from './names.ts';
import type { IndexState } from './store-index.ts';
import type { Disk, SessionSummary } from './types.ts';

/** The n of a variant id (`<id>~n`), 0 for the session itself. */
export function variantNumber(id: string): number {
  return Number(/~(\d+)$/.exec(id)?.[1] ?? 0);
}

/**
 * The session stored under `headerId`, then its variants in the order they were made. The files
 * decide, not only the index: another tab may have written this session and not yet flushed its
 * index records (callers hold the session's write lock, so files are settled). A session seen for
 * the first time costs one look at the disk.
 */
export async function familyOf(
  disk: Disk,
  index: IndexState,
  indexed: () => Promise<Map<string, SessionSummary>>,
  headerId: string,
): Promise<SessionSummary[]> {
  const mainStat = await disk.stat(sessionPath(headerId));
  if (!mainStat) return [];
  const map = await indexed();
  const ids = new Set<string>([headerId, ...index.variantsOf(map, headerId)]);
  for (let n = 2; ; n++) {
    const v = variantId(headerId, n);
    if (ids.has(v)) continue;
    if ((await disk.size(sessionPath(v))) === null) break;
    ids.add(v);
  }
  const out: SessionSummary[] = [];
  for (const id of ids) {
    const path = sessionPath(id);
    const stat = id === headerId ? mainStat : await disk.stat(path);
    if (!stat) continue;
    const known = map.get(id);
    out.push(known && known.size === stat.size ? known : await index.rescan(id, path, id === headerId ? undefined : headerId));
  }
  return out.sort((a, b) => variantNumber(a.id) - variantNumber(b.id));
}
