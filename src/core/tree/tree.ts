// The entry tree (§1.6, §0.2): leaf, branch walk, children and leaves. Every walk is a loop with a
// visited set — sessions reach 100,000+ entries, and a parentId cycle must end the walk, not hang it.
import { clip, problem } from '../read/problems.ts';
import type { Entry, ParsedSession, Problem } from '../schema/types.ts';

/**
 * The envelopes of the nodes, read by position: from parallel arrays (the envelope index,
 * `arrayNodes`) or from the entries themselves (`parse`, which so keeps no copy of them).
 */
export interface TreeNodes {
  count: number;
  idAt(i: number): string | undefined;
  parentAt(i: number): string | null | undefined;
  lines: readonly number[];
}

/** Nodes whose ids and parent ids are parallel arrays. */
export function arrayNodes(ids: readonly (string | undefined)[], parentIds: readonly (string | null | undefined)[], lines: readonly number[]): TreeNodes {
  return { count: ids.length, idAt: (i) => ids[i], parentAt: (i) => parentIds[i], lines };
}

/** What `checkTree` learns: the id index (later duplicate wins), the leaf and the tree problems. */
export interface TreeCheck {
  indexById: Map<string, number>;
  leafIndex: number;
  problems: Problem[];
}

/** The subset of a session the tree functions need (a ParsedSession or a writer's Session). */
export type TreeLike = Pick<ParsedSession, 'entries' | 'entryLines' | 'byId' | 'indexById' | 'leafId'>;

/** Whether a parentId points at a parent (pi follows parentId only while it is truthy). */
export function hasParent(parentId: unknown): parentId is string {
  return typeof parentId === 'string' && parentId !== '';
}

/**
 * Indexes ids and reports duplicate ids, missing parents and cycles, in file order.
 * Shared by `parse` and `indexEnvelopes` so the two always agree.
 */
export function checkTree(nodes: TreeNodes): TreeCheck {
  const { count, idAt, parentAt, lines } = nodes;
  const indexById = new Map<string, number>();
  const problems: Problem[] = [];
  let leafIndex = -1;
  for (let i = 0; i < count; i++) {
    const id = idAt(i);
    if (id === undefined) continue;
    const earlier = indexById.get(id);
    if (earlier !== undefined) {
      problems.push(problem(lines[i], 'duplicate-id', `id "${clip(id)}" already used on line ${lines[earlier]}; the later entry wins`));
    }
    indexById.set(id, i);
    leafIndex = i;
  }
  // A cycle needs an entry whose parent is not before it in the file; only those start a cycle walk.
  const forward: number[] = [];
  for (let i = 0; i < count; i++) {
    const parentId = parentAt(i);
    if (!hasParent(parentId)) continue;
    const p = indexById.get(parentId);
    if (p === undefined) problems.push(problem(lines[i], 'missing-parent', `parent "${clip(parentId)}" does not exist; the branch starts here`));
    else if (p >= i) {
      const id = idAt(i);
      if (id !== undefined && indexById.get(id) === i) forward.push(i);
    }
  }
  if (forward.length) problems.push(...findCycles(nodes, indexById, forward));
  return { indexById, leafIndex, problems };
}

// Colouring walk over the parent pointers of the id winners: 1 = on the current path, 2 = done.
function findCycles(nodes: TreeNodes, indexById: Map<string, number>, starts: number[]): Problem[] {
  const state = new Uint8Array(nodes.count);
  const problems: Problem[] = [];
  const path: number[] = [];
  for (const start of starts) {
    if (state[start] !== 0) continue;
    let at: number | undefined = start;
    while (at !== undefined && state[at] === 0) {
      state[at] = 1;
      path.push(at);
      const parentId: string | null | undefined = nodes.parentAt(at);
      at = hasParent(parentId) ? indexById.get(parentId) : undefined;
    }
    if (at !== undefined && state[at] === 1) {
      const closer = path[path.length - 1];
      problems.push(
        problem(
          nodes.lines[closer],
          'cycle',
          `parent "${clip(String(nodes.parentAt(closer)))}" leads back to this entry (a parentId cycle); the walk stops there`,
        ),
      );
    }
    for (const i of path) state[i] = 2;
    path.length = 0;
  }
  return problems;
}

/**
 * The one branch walk, over positions: from the entry with id `leafId`, follow parent ids through
 * `indexById` to a root. Returns positions oldest first and the problems met: a missing parent ends
 * the walk (the branch starts at the orphan), a position seen twice ends it (cycle).
 */
export function walkIndices(
  indexById: ReadonlyMap<string, number>,
  parentIdAt: (i: number) => unknown,
  lineAt: (i: number) => number,
  leafId: string | null,
): { indices: number[]; problems: Problem[] } {
  const indices: number[] = [];
  const problems: Problem[] = [];
  if (leafId === null) return { indices, problems };
  const seen = new Set<number>();
  let index = indexById.get(leafId);
  while (index !== undefined) {
    seen.add(index);
    indices.push(index);
    const parentId = parentIdAt(index);
    if (!hasParent(parentId)) break;
    const next = indexById.get(parentId);
    if (next === undefined) {
      problems.push(problem(lineAt(index), 'missing-parent', `parent "${clip(parentId)}" does not exist; the branch starts here`));
    } else if (seen.has(next)) {
      problems.push(problem(lineAt(index), 'cycle', `parent "${clip(parentId)}" is already on the branch (a parentId cycle); the walk stops here`));
      break;
    }
    index = next;
  }
  indices.reverse();
  return { indices, problems };
}

/**
 * The branch ending at `leafId` (default: the session's leaf), oldest first, with the problems met:
 * a missing parent ends the walk (the branch starts at the orphan), a repeated id ends it (cycle).
 * An unknown leaf gives an empty branch.
 */
export function walkBranch(session: TreeLike, leafId?: string | null): { entries: Entry[]; problems: Problem[] } {
  const { entries, entryLines } = session;
  const walk = walkIndices(
    session.indexById,
    (i) => entries[i].parentId,
    (i) => entryLines[i] ?? 0,
    leafId === undefined ? session.leafId : leafId,
  );
  return { entries: walk.indices.map((i) => entries[i]), problems: walk.problems };
}

/** The entries on the branch ending at `leafId` (default: the leaf = last entry with an id), oldest first. */
export function branch(session: TreeLike, leafId?: string | null): Entry[] {
  return walkBranch(session, leafId).entries;
}

/** A tree seen by positions (0…size-1): what children, leaves and leafOf work on. */
export interface PositionTree {
  /** Identity the child lists are cached under (the entry array, or the envelope index). */
  key: object;
  size: number;
  idAt: (i: number) => string | undefined;
  parentIdAt: (i: number) => unknown;
  indexById: ReadonlyMap<string, number>;
}

// Child lists are built once per tree and kept beside it; an append grows the same entry array,
// so a cached list is rebuilt when the size changed.
const childLists = new WeakMap<object, { size: number; lists: Map<string | null, number[]> }>();

function childListsOf(t: PositionTree): Map<string | null, number[]> {
  const cached = childLists.get(t.key);
  if (cached && cached.size === t.size) return cached.lists;
  const lists = new Map<string | null, number[]>();
  for (let i = 0; i < t.size; i++) {
    const parentId = t.parentIdAt(i);
    // Roots and orphans both hang under null (pi's getTree lists orphans as roots).
    const key = hasParent(parentId) && t.indexById.has(parentId) ? parentId : null;
    let list = lists.get(key);
    if (!list) lists.set(key, (list = []));
    list.push(i);
  }
  childLists.set(t.key, { size: t.size, lists });
  return lists;
}

/** Positions whose parent is `id`, in file order; `null` gives the roots (and orphans). */
export function childPositions(t: PositionTree, id: string | null): number[] {
  return childListsOf(t).get(id) ?? [];
}

/** Positions of entries with an id (the winner of a duplicate) and no children: the ends of every branch. */
export function leafPositions(t: PositionTree): number[] {
  const lists = childListsOf(t);
  const out: number[] = [];
  for (let i = 0; i < t.size; i++) {
    const id = t.idAt(i);
    if (id !== undefined && t.indexById.get(id) === i && !lists.has(id)) out.push(i);
  }
  return out;
}

/** The leaf reached from `id` by always taking the newest child (cycle-safe); null for an unknown id. */
export function leafFrom(t: PositionTree, id: string): string | null {
  if (!t.indexById.has(id)) return null;
  const lists = childListsOf(t);
  const seen = new Set<string>();
  let at = id;
  for (;;) {
    seen.add(at);
    const kids = (lists.get(at) ?? []).map(t.idAt).filter((k): k is string => k !== undefined && !seen.has(k));
    if (kids.length === 0) return at;
    at = kids[kids.length - 1];
  }
}

/** A session seen as a position tree. */
export function sessionTree(session: TreeLike): PositionTree {
  const { entries } = session;
  return { key: entries, size: entries.length, idAt: (i) => entries[i].id, parentIdAt: (i) => entries[i].parentId, indexById: session.indexById };
}

/** The entries whose parent is `id`, in file order; `null` gives the roots (and orphans). */
export function children(session: TreeLike, id: string | null): Entry[] {
  return childPositions(sessionTree(session), id).map((i) => session.entries[i]);
}

/** Entries with an id and no children, in file order: the ends of every branch. */
export function leaves(session: TreeLike): Entry[] {
  return leafPositions(sessionTree(session)).map((i) => session.entries[i]);
}

/** The leaf reached from `id` by always taking the newest child: where a click on an old entry should lead. */
export function leafOf(session: TreeLike, id: string): string | null {
  return leafFrom(sessionTree(session), id);
}

/** The same session with another leaf (the next `branch`/`context`/`append` starts there). */
export function withLeaf<T extends TreeLike>(session: T, leafId: string | null): T {
  return { ...session, leafId };
}
