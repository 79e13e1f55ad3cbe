// The order lines are converted in, and the order entries are written in. Claude sometimes writes
// a line before its parent (a tool result before the assistant line with its call): such a line
// waits until its parent has been converted, so every pi entry comes after its parent. pi takes
// the last entry of a file as its leaf: when lines of another chain (a subagent's sidechain
// still running) come after the active leaf, the leaf and what hangs from it move to the end.
import type { Json } from './content.ts';
import type { SourceLine } from './records.ts';

/**
 * Calls `visit` for every line in file order, except that a line whose parent (`parentOf`) is
 * in the file but not yet converted (`done`) waits for it; lines still waiting at the end (their
 * parents form a cycle) are visited then, and read as having a missing parent.
 */
export function inParentOrder(
  lines: readonly SourceLine[],
  parentOf: (r: Json) => unknown,
  done: (uuid: string) => boolean,
  visit: (l: SourceLine) => void,
): void {
  const at = new Set<string>();
  for (const { record: r } of lines) if (typeof r.uuid === 'string') at.add(r.uuid);
  const waiting = new Map<string, SourceLine[]>();
  const visitWithWaiting = (l: SourceLine) => {
    const stack = [l];
    while (stack.length) {
      const next = stack.pop() as SourceLine;
      visit(next);
      const uuid = next.record.uuid;
      const children = typeof uuid === 'string' ? waiting.get(uuid) : undefined;
      if (!children) continue;
      waiting.delete(uuid as string);
      for (let k = children.length - 1; k >= 0; k--) stack.push(children[k] as SourceLine);
    }
  };
  for (const l of lines) {
    const parent = parentOf(l.record);
    if (typeof parent === 'string' && parent !== l.record.uuid && at.has(parent) && !done(parent)) {
      const list = waiting.get(parent) ?? [];
      list.push(l);
      waiting.set(parent, list);
    } else visitWithWaiting(l);
  }
  for (const list of waiting.values()) for (const l of list) visitWithWaiting(l);
}

/**
 * Moves the active leaf's entry, and what main-chain lines hung after it, to the end when later
 * entries belong elsewhere (`side`: entries from sidechain lines, e.g. a subagent still running
 * under the leaf's Task call): pi's leaf is the last entry. A subagent hanging from the leaf then
 * comes before its parent in the file; pi, omp and our core index all entries before walking.
 */
export function leafLast(out: Json[], leafId: string | null, side: ReadonlySet<Json>): Json[] {
  if (leafId === null) return out;
  const at = out.findIndex((e) => e.id === leafId);
  if (at < 0) return out;
  const mine = new Set([leafId]);
  const moved: Json[] = [out[at] as Json];
  const stay: Json[] = [];
  for (const e of out.slice(at + 1)) {
    if (!side.has(e) && mine.has(e.parentId as string)) {
      mine.add(e.id as string);
      moved.push(e);
    } else stay.push(e);
  }
  if (stay.length === 0) return out;
  return [...out.slice(0, at), ...stay, ...moved];
}
