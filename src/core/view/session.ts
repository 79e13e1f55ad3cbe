import { displayTitleOf } from './title.ts';
import { leafOf, walkBranch } from '../tree.ts';
import type { Entry, ParsedSession } from '../types.ts';
import { buildMarks, filterIndexes, findItems } from './filter.ts';
import { buildItems, indexSession, type SessionIndex } from './items.ts';
import { buildOutline, markForks } from './outline.ts';
import type { ItemFilter, RenderItem, SessionView } from './types.ts';

/** A parsed session with the lookups every branch shares. */
export interface ReaderSession {
  id: string;
  bytes: number;
  session: ParsedSession;
  index: SessionIndex;
}

/** One branch of a session, rendered: its entries, items, and per-filter positions. */
export interface ReaderBranch {
  leafId: string | null;
  entries: Entry[];
  items: RenderItem[];
  problems: Array<{ line: number; code: string; message: string; severity: string }>;
  /** Item index of each entry id on the branch (folded tool results point at their call). */
  itemOf: Map<string, number>;
  filtered: Map<ItemFilter, number[]>;
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

/** Renders one branch of a session. */
export function openBranch(reader: ReaderSession, leafId: string | null): ReaderBranch {
  const { entries, problems } = walkBranch(reader.session, leafId);
  const items = buildItems(entries, reader.index);
  const ids = new Set<string>();
  for (const e of entries) if (typeof e.id === 'string') ids.add(e.id);
  markForks(reader.session, items, ids);
  const itemOf = new Map<string, number>();
  for (const item of items) {
    itemOf.set(item.entryId, item.index);
    for (const id of item.alsoIds ?? []) itemOf.set(id, item.index);
  }
  return { leafId, entries, items, problems, itemOf, filtered: new Map() };
}

/** Positions of the items a filter keeps (cached on the branch). */
export function keptOf(branch: ReaderBranch, filter: ItemFilter): number[] {
  let kept = branch.filtered.get(filter);
  if (!kept) branch.filtered.set(filter, (kept = filterIndexes(branch.items, filter)));
  return kept;
}

/** Position in the filtered list of an entry (or the next kept item after it). */
export function positionOf(branch: ReaderBranch, filter: ItemFilter, entryId: string): number | null {
  const source = branch.itemOf.get(entryId);
  if (source === undefined) return null;
  const kept = keptOf(branch, filter);
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
  const kept = keptOf(branch, filter);
  const ids = new Set<string>();
  for (const e of branch.entries) if (typeof e.id === 'string') ids.add(e.id);
  const tree = buildOutline(session, ids);
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
    marks: buildMarks(branch.items, kept),
    entryIndex: entryId ? positionOf(branch, filter, entryId) : null,
    tree,
    problems: [...session.problems, ...branch.problems].slice(0, 200).map((p) => ({ line: p.line, code: p.code, message: p.message, severity: p.severity })),
    bytes: reader.bytes,
  };
}

/** A window [start, end) of the filtered items, each carrying its filtered position as `index`. */
export function windowOf(branch: ReaderBranch, filter: ItemFilter, start: number, end: number): RenderItem[] {
  const kept = keptOf(branch, filter);
  const from = Math.max(0, Math.min(start, kept.length));
  const to = Math.max(from, Math.min(end, kept.length));
  const out: RenderItem[] = [];
  for (let p = from; p < to; p++) out.push({ ...branch.items[kept[p]], index: p });
  return out;
}

/** Find in session over the filtered list. */
export function findInBranch(branch: ReaderBranch, filter: ItemFilter, query: string) {
  return findItems(branch.items, keptOf(branch, filter), query);
}
