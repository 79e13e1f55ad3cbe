import { displayTitleOf } from './title.ts';
import { leafOf, walkBranch } from '../tree.ts';
import type { Entry, ParsedSession } from '../types.ts';
import { buildMarks, filterRows, findItems } from './filter.ts';
import { buildItem, indexSession, scanBranch, type BranchScan, type SessionIndex } from './items.ts';
import { buildOutline, forksOf } from './outline.ts';
import type { ItemFilter, RenderItem, SessionView } from './types.ts';

/** A parsed session with the lookups every branch shares. */
export interface ReaderSession {
  id: string;
  bytes: number;
  session: ParsedSession;
  index: SessionIndex;
}

/** One branch of a session: its entries, the scan, and the items built so far. */
export interface ReaderBranch {
  leafId: string | null;
  entries: Entry[];
  scan: BranchScan;
  problems: Array<{ line: number; code: string; message: string; severity: string }>;
  /** Items built so far, by row. */
  built: Map<number, RenderItem>;
  filtered: Map<ItemFilter, number[]>;
  ids: Set<string>;
}

/** Wraps a parse for reading. */
export function openReaderSession(id: string, session: ParsedSession, bytes: number): ReaderSession {
  return { id, bytes, session, index: indexSession(session) };
}

/** Chooses the leaf to show: the asked one, or the newest leaf under an entry not on it, else the file's leaf. */
export function chooseLeaf(session: ParsedSession, leafId?: string | null, entryId?: string | null): string | null {
  let leaf = leafId && session.byId.has(leafId) ? leafId : session.leafId;
  if (entryId && session.byId.has(entryId) && leaf) {
    const onBranch = walkBranch(session, leaf).entries.some((e) => e.id === entryId);
    if (!onBranch) leaf = leafOf(session, entryId) ?? leaf;
  }
  return leaf;
}

/** Opens one branch of a session: walks it and scans it; items are built on demand. */
export function openBranch(reader: ReaderSession, leafId: string | null): ReaderBranch {
  const { entries, problems } = walkBranch(reader.session, leafId);
  const ids = new Set<string>();
  for (const e of entries) if (typeof e.id === 'string') ids.add(e.id);
  return { leafId, entries, scan: scanBranch(entries), problems, built: new Map(), filtered: new Map(), ids };
}

/** The item of a row (built once, with its fork markers). */
export function itemAt(reader: ReaderSession, branch: ReaderBranch, row: number): RenderItem {
  let item = branch.built.get(row);
  if (!item) {
    item = buildItem(branch.entries, branch.scan, reader.index, row);
    const forks = forksOf(reader.session, [item.entryId, ...(item.alsoIds ?? [])], branch.ids);
    if (forks.length) item.forks = forks;
    branch.built.set(row, item);
  }
  return item;
}

/** Rows a filter keeps (cached on the branch). */
export function keptOf(reader: ReaderSession, branch: ReaderBranch, filter: ItemFilter): number[] {
  let kept = branch.filtered.get(filter);
  if (!kept) {
    const entryIdOf = (row: number) => String(branch.entries[branch.scan.rows[row]].id ?? '');
    kept = filterRows(branch.scan, filter, (row) => reader.index.labels.has(entryIdOf(row)));
    branch.filtered.set(filter, kept);
  }
  return kept;
}

/** Position in the filtered list of an entry (or the next kept item after it). */
export function positionOf(reader: ReaderSession, branch: ReaderBranch, filter: ItemFilter, entryId: string): number | null {
  const source = branch.scan.rowOf.get(entryId);
  if (source === undefined) return null;
  const kept = keptOf(reader, branch, filter);
  let lo = 0;
  let hi = kept.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (kept[mid] < source) lo = mid + 1;
    else hi = mid;
  }
  return lo < kept.length ? lo : kept.length ? kept.length - 1 : null;
}

/** The outline the page opens with: title, counts, tree, marks, problems. */
export function buildSessionView(reader: ReaderSession, branch: ReaderBranch, filter: ItemFilter, entryId?: string | null): SessionView {
  const { session } = reader;
  const kept = keptOf(reader, branch, filter);
  const tree = buildOutline(session, branch.ids);
  return {
    id: reader.id,
    title: displayTitleOf(session),
    cwd: typeof session.header?.cwd === 'string' ? session.header.cwd : '',
    created: typeof session.header?.timestamp === 'string' ? session.header.timestamp : null,
    version: session.version,
    leafId: branch.leafId,
    defaultLeafId: session.leafId,
    count: kept.length,
    filter,
    entryCount: session.entries.length,
    branchEntryCount: branch.entries.length,
    leafCount: tree.filter((s) => s.leafId).length,
    marks: buildMarks(branch.scan, kept),
    entryIndex: entryId ? positionOf(reader, branch, filter, entryId) : null,
    tree,
    problems: [...session.problems, ...branch.problems].slice(0, 200).map((p) => ({ line: p.line, code: p.code, message: p.message, severity: p.severity })),
    bytes: reader.bytes,
  };
}

/** A window [start, end) of the filtered items, each carrying its filtered position as `index`. */
export function windowOf(reader: ReaderSession, branch: ReaderBranch, filter: ItemFilter, start: number, end: number): RenderItem[] {
  const kept = keptOf(reader, branch, filter);
  const from = Math.max(0, Math.min(start, kept.length));
  const to = Math.max(from, Math.min(end, kept.length));
  const out: RenderItem[] = [];
  for (let p = from; p < to; p++) out.push({ ...itemAt(reader, branch, kept[p]), index: p });
  return out;
}

/** Find in session over the filtered list (builds every item once). */
export function findInBranch(reader: ReaderSession, branch: ReaderBranch, filter: ItemFilter, query: string) {
  const kept = keptOf(reader, branch, filter);
  return findItems(kept.length, (p) => itemAt(reader, branch, kept[p]), query);
}
