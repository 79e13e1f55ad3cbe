// The entry tree (§1.6, §0.2): leaf, branch walk, children and leaves. Every walk is a loop with a
// visited set — sessions reach 100,000+ entries, and a parentId cycle must end the walk, not hang it.
import { problem } from './problems.ts';
import type { Entry, ParsedSession, Problem } from './types.ts';

/** The envelope of one node, as both `parse` and the envelope index see it. */
export interface TreeNode {
  id: string | undefined;
  parentId: string | null | undefined;
  line: number;
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
export function checkTree(nodes: readonly TreeNode[]): TreeCheck {
  const indexById = new Map<string, number>();
  const problems: Problem[] = [];
  let leafIndex = -1;
  for (let i = 0; i < nodes.length; i++) {
    const id = nodes[i].id;
    if (id === undefined) continue;
    const earlier = indexById.get(id);
    if (earlier !== undefined) {
      problems.push(problem(nodes[i].line, 'duplicate-id', `id "${id}" already used on line ${nodes[earlier].line}; the later entry wins`));
    }
    indexById.set(id, i);
    leafIndex = i;
  }
  for (const node of nodes) {
    if (hasParent(node.parentId) && !indexById.has(node.parentId)) {
      problems.push(problem(node.line, 'missing-parent', `parent "${node.parentId}" does not exist; the branch starts here`));
    }
  }
  problems.push(...findCycles(nodes, indexById));
  return { indexById, leafIndex, problems };
}

// Colouring walk over the parent pointers of the id winners: 1 = on the current path, 2 = done.
function findCycles(nodes: readonly TreeNode[], indexById: Map<string, number>): Problem[] {
  const state = new Uint8Array(nodes.length);
  const problems: Problem[] = [];
  const path: number[] = [];
  for (const start of indexById.values()) {
    if (state[start] !== 0) continue;
    let at: number | undefined = start;
    while (at !== undefined && state[at] === 0) {
      state[at] = 1;
      path.push(at);
      const parentId: string | null | undefined = nodes[at].parentId;
      at = hasParent(parentId) ? indexById.get(parentId) : undefined;
    }
    if (at !== undefined && state[at] === 1) {
      const closer = nodes[path[path.length - 1]];
      problems.push(problem(closer.line, 'cycle', `parent "${closer.parentId}" leads back to this entry (a parentId cycle); the walk stops there`));
    }
    for (const i of path) state[i] = 2;
    path.length = 0;
  }
  return problems;
}

/**
 * The branch ending at `leafId` (default: the session's leaf), oldest first, with the problems met:
 * a missing parent ends the walk (the branch starts at the orphan), a repeated id ends it (cycle).
 * An unknown leaf gives an empty branch.
 */
export function walkBranch(session: TreeLike, leafId?: string | null): { entries: Entry[]; problems: Problem[] } {
  const entries: Entry[] = [];
  const problems: Problem[] = [];
  const start = leafId === undefined ? session.leafId : leafId;
  if (start === null) return { entries, problems };
  const seen = new Set<string>();
  let index = session.indexById.get(start);
  while (index !== undefined) {
    const entry = session.entries[index];
    seen.add(entry.id as string);
    entries.push(entry);
    const parentId = entry.parentId;
    if (!hasParent(parentId)) break;
    const next = session.indexById.get(parentId);
    const line = session.entryLines[index] ?? 0;
    if (next === undefined) {
      problems.push(problem(line, 'missing-parent', `parent "${parentId}" does not exist; the branch starts here`));
    } else if (seen.has(parentId)) {
      problems.push(problem(line, 'cycle', `parent "${parentId}" is already on the branch (a parentId cycle); the walk stops here`));
      break;
    }
    index = next;
  }
  entries.reverse();
  return { entries, problems };
}

/** The entries on the branch ending at `leafId` (default: the leaf = last entry with an id), oldest first. */
export function branch(session: TreeLike, leafId?: string | null): Entry[] {
  return walkBranch(session, leafId).entries;
}

// Children lists are built once per session and kept beside it.
// An append grows the same array, so the cached index is rebuilt when the length changed.
const childIndexes = new WeakMap<object, { size: number; index: Map<string | null, Entry[]> }>();

function childIndex(session: TreeLike): Map<string | null, Entry[]> {
  const cached = childIndexes.get(session.entries);
  if (cached && cached.size === session.entries.length) return cached.index;
  const index = new Map<string | null, Entry[]>();
  for (const entry of session.entries) {
    const parentId = entry.parentId;
    // Roots and orphans both hang under null (pi's getTree lists orphans as roots).
    const key = hasParent(parentId) && session.indexById.has(parentId) ? parentId : null;
    let list = index.get(key);
    if (!list) index.set(key, (list = []));
    list.push(entry);
  }
  childIndexes.set(session.entries, { size: session.entries.length, index });
  return index;
}

/** The entries whose parent is `id`, in file order; `null` gives the roots (and orphans). */
export function children(session: TreeLike, id: string | null): Entry[] {
  return childIndex(session).get(id) ?? [];
}

/** Entries with an id and no children, in file order: the ends of every branch. */
export function leaves(session: TreeLike): Entry[] {
  const index = childIndex(session);
  return session.entries.filter((e) => typeof e.id === 'string' && session.byId.get(e.id) === e && !index.has(e.id));
}

/** The leaf reached from `id` by always taking the newest child: where a click on an old entry should lead. */
export function leafOf(session: TreeLike, id: string): string | null {
  if (!session.indexById.has(id)) return null;
  const index = childIndex(session);
  const seen = new Set<string>();
  let at = id;
  for (;;) {
    seen.add(at);
    const kids = (index.get(at) ?? []).filter((e) => typeof e.id === 'string' && !seen.has(e.id));
    if (kids.length === 0) return at;
    at = kids[kids.length - 1].id as string;
  }
}

/** The same session with another leaf (the next `branch`/`context`/`append` starts there). */
export function withLeaf<T extends TreeLike>(session: T, leafId: string | null): T {
  return { ...session, leafId };
}
