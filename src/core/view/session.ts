import { walkIndexBranch } from '../envelope/envelopes.ts';
import { buildMarks, filterRows, findItems } from './filter.ts';
import { buildItem } from './items.ts';
import { ownerRow, scanBranch, type BranchScan } from './branch-scan.ts';
import { buildOutline, forksOf } from './outline.ts';
import { newestLeaf, titleOf, type SessionSource } from './source.ts';
import { VIEW_PAGE, type ItemFilter, type RenderItem, type SessionView } from './types.ts';

/** One branch of a session: its entry positions, items built so far, and (once needed) its scan. */
export interface ReaderBranch {
  leafId: string | null;
  /** Positions (in the file's entries) of the branch, oldest first; row r shows entry branch[r]. */
  branch: number[];
  problems: Array<{ line: number; code: string; message: string; severity: string }>;
  /** Row of each entry position on the branch (-1 when not on it). */
  rowOf: Int32Array;
  ids: Set<string>;
  built: Map<number, RenderItem>;
  scan: BranchScan | null;
  filtered: Map<ItemFilter, number[]>;
}

/** Chooses the leaf to show: the asked one, else the file's; an entry not on it picks the newest leaf under that entry. */
export function chooseLeaf(source: SessionSource, leafId?: string | null, entryId?: string | null): string | null {
  const { indexById } = source.index;
  let leaf = leafId && indexById.has(leafId) ? leafId : source.index.leafId;
  if (entryId && indexById.has(entryId) && leaf) {
    const onBranch = walkIndexBranch(source.index, leaf).indices.includes(indexById.get(entryId)!);
    if (!onBranch) leaf = newestLeaf(source, entryId);
  }
  return leaf;
}

/** Opens one branch: walks the envelopes to the root. No body is parsed. */
export function openBranch(source: SessionSource, leafId: string | null): ReaderBranch {
  const { indices, problems } = walkIndexBranch(source.index, leafId);
  const rowOf = new Int32Array(source.count).fill(-1);
  const ids = new Set<string>();
  indices.forEach((i, row) => {
    rowOf[i] = row;
    const id = source.index.ids[i];
    if (typeof id === 'string') ids.add(id);
  });
  return {
    leafId,
    branch: indices,
    problems: problems.map((p) => ({ line: p.line, code: p.code, message: p.message, severity: p.severity })),
    rowOf,
    ids,
    built: new Map(),
    scan: null,
    filtered: new Map(),
  };
}

/** The scan of a branch (reads every body on it, once). */
export function scanOf(source: SessionSource, branch: ReaderBranch): BranchScan {
  return (branch.scan ??= scanBranch(source, branch.branch));
}

/** The item of a row (built once, with its fork markers). */
export function itemAt(source: SessionSource, branch: ReaderBranch, row: number): RenderItem {
  let item = branch.built.get(row);
  if (!item) {
    item = buildItem(source, branch.branch, row, row);
    if (item.kind === 'compaction' && item.firstKeptEntryId) item.firstKeptIndex = positionOf(source, branch, 'all', item.firstKeptEntryId);
    if (item.kind !== 'folded') {
      const forks = forksOf(source, [item.entryId, ...(item.alsoIds ?? [])], branch.ids);
      if (forks.length) item.forks = forks;
    }
    branch.built.set(row, item);
  }
  return item;
}

/** Rows a filter keeps (cached); every filter but 'all' needs the scan. */
export function keptOf(source: SessionSource, branch: ReaderBranch, filter: ItemFilter): number[] | null {
  if (filter === 'all') return null;
  let kept = branch.filtered.get(filter);
  if (!kept) {
    const labels = source.labels();
    kept = filterRows(scanOf(source, branch), filter, (row) => labels.has(String(source.index.ids[branch.branch[row]] ?? '')));
    branch.filtered.set(filter, kept);
  }
  return kept;
}

/** Number of items under a filter. */
export function countOf(source: SessionSource, branch: ReaderBranch, filter: ItemFilter): number {
  return keptOf(source, branch, filter)?.length ?? branch.branch.length;
}

/** The row at a position of the filtered list. */
function rowAt(kept: number[] | null, position: number): number {
  return kept ? kept[position] : position;
}

/** Position in the filtered list of an entry (a folded result: its call; not kept: the next kept item). */
export function positionOf(source: SessionSource, branch: ReaderBranch, filter: ItemFilter, entryId: string): number | null {
  const at = source.index.indexById.get(entryId);
  if (at === undefined || branch.rowOf[at] < 0) return null;
  let row = branch.rowOf[at];
  row = ownerRow(source, branch.branch, row) ?? row;
  const kept = keptOf(source, branch, filter);
  if (!kept) return row;
  let lo = 0;
  let hi = kept.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (kept[mid] < row) lo = mid + 1;
    else hi = mid;
  }
  return lo < kept.length ? lo : kept.length ? kept.length - 1 : null;
}

/** Marks for keyboard jumps under a filter (needs the scan). */
export function marksOf(source: SessionSource, branch: ReaderBranch, filter: ItemFilter) {
  const scan = scanOf(source, branch);
  const kept = keptOf(source, branch, filter) ?? Array.from({ length: branch.branch.length }, (_, i) => i);
  return buildMarks(scan, kept);
}

/** The outline the page opens with: title, counts, tree, problems; marks when already known. */
export function buildSessionView(source: SessionSource, branch: ReaderBranch, filter: ItemFilter, entryId?: string | null): SessionView {
  const { index } = source;
  const tree = buildOutline(source, branch.ids);
  const count = countOf(source, branch, filter);
  const entryIndex = entryId ? positionOf(source, branch, filter, entryId) : null;
  // The pages around where the reader opens (the entry, or the end), two of them so a screen is full.
  const target = entryIndex ?? Math.max(0, count - 1);
  const itemsStart = Math.max(0, (Math.floor(target / VIEW_PAGE) - 1) * VIEW_PAGE);
  const items = windowOf(source, branch, filter, itemsStart, itemsStart + 2 * VIEW_PAGE);
  return {
    id: source.id,
    title: titleOf(source),
    cwd: typeof index.header?.cwd === 'string' ? index.header.cwd : '',
    created: typeof index.header?.timestamp === 'string' ? index.header.timestamp : null,
    version: index.version,
    leafId: branch.leafId,
    defaultLeafId: index.leafId,
    count,
    filter,
    entryCount: source.count,
    branchEntryCount: branch.branch.length,
    leafCount: tree.filter((s) => s.leafId).length,
    marks: branch.scan ? marksOf(source, branch, filter) : null,
    entryIndex,
    tree,
    items,
    itemsStart,
    problems: [...index.problems, ...branch.problems].slice(0, 200).map((p) => ({ line: p.line, code: p.code, message: p.message, severity: p.severity })),
    bytes: index.size,
  };
}

/** A window [start, end) of the filtered items, each carrying its filtered position as `index`. */
export function windowOf(source: SessionSource, branch: ReaderBranch, filter: ItemFilter, start: number, end: number): RenderItem[] {
  const kept = keptOf(source, branch, filter);
  const count = kept ? kept.length : branch.branch.length;
  const from = Math.max(0, Math.min(start, count));
  const to = Math.max(from, Math.min(end, count));
  const out: RenderItem[] = [];
  for (let p = from; p < to; p++) {
    const item = itemAt(source, branch, rowAt(kept, p));
    const copy = { ...item, index: p } as RenderItem;
    if (copy.kind === 'folded' && kept) copy.ownerIndex = positionOf(source, branch, filter, copy.entryId) ?? p;
    if (copy.kind === 'compaction' && kept && copy.firstKeptEntryId) copy.firstKeptIndex = positionOf(source, branch, filter, copy.firstKeptEntryId);
    out.push(copy);
  }
  return out;
}

/** Find in session over the filtered list (builds every item once). */
export function findInBranch(source: SessionSource, branch: ReaderBranch, filter: ItemFilter, query: string) {
  const kept = keptOf(source, branch, filter);
  const count = kept ? kept.length : branch.branch.length;
  return findItems(count, (p) => itemAt(source, branch, rowAt(kept, p)), query);
}
