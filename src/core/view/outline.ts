import type { Entry } from '../schema/types.ts';
import { contentText, isObject, str } from './parts.ts';
import { newestLeaf, type SessionSource } from './source.ts';
import type { ForkView, TreeSegment } from './types.ts';

const PREVIEW_CHARS = 90;
/** Bodies read per run to find its preview (a run of tool output needs no more). */
const PREVIEW_REACH = 40;

/** A one-line preview of an entry: user or assistant text, or a summary; '' for others. */
export function previewOf(entry: Entry): string {
  let text = '';
  if (entry.type === 'message' && isObject(entry.message)) {
    const role = entry.message.role;
    if (role === 'user' || role === 'assistant') text = contentText(entry.message.content);
  } else if (entry.type === 'branch_summary' || entry.type === 'compaction') text = str(entry.summary);
  else if (entry.type === 'custom_message') text = contentText(entry.content);
  text = text
    .replace(/<attachment[\s\S]*?<\/attachment>/g, '')
    .replace(/[*`]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS - 1)}…` : text;
}

/** Follows a chain from entry `start` while each entry has exactly one child; positions of the run and the children after it. */
function runFrom(source: SessionSource, start: number, seen: Set<string>): { run: number[]; next: number[] } {
  const run: number[] = [];
  let at: number | undefined = start;
  while (at !== undefined) {
    const id = source.index.ids[at];
    if (typeof id !== 'string' || seen.has(id)) break;
    seen.add(id);
    run.push(at);
    const kids = source.childrenOf(id);
    if (kids.length !== 1) return { run, next: kids };
    at = kids[0];
  }
  return { run, next: [] };
}

/**
 * The session's tree compressed into runs (chains between forks), in depth-first order with the
 * oldest child first, marking the runs on the active branch. Iterative: depth is unbounded.
 */
export function buildOutline(source: SessionSource, activeIds: ReadonlySet<string>): TreeSegment[] {
  const { ids, types } = source.index;
  const segments: TreeSegment[] = [];
  const seen = new Set<string>();
  const roots = source.childrenOf(null);
  const stack: Array<{ at: number; depth: number }> = [];
  for (let i = roots.length - 1; i >= 0; i--) stack.push({ at: roots[i], depth: 0 });
  while (stack.length) {
    const { at, depth } = stack.pop()!;
    const { run, next } = runFrom(source, at, seen);
    if (!run.length) continue;
    const last = run[run.length - 1];
    let preview = '';
    for (let k = 0; k < run.length && k < PREVIEW_REACH && !preview; k++) {
      const type = types[run[k]];
      if (type === 'message' || type === 'branch_summary' || type === 'compaction' || type === 'custom_message') preview = previewOf(source.body(run[k]));
    }
    const lastId = ids[last] as string;
    const timestamp = source.body(last).timestamp;
    const segment: TreeSegment = {
      firstId: ids[run[0]] as string,
      lastId,
      depth,
      count: run.length,
      preview,
      active: activeIds.has(lastId),
      timestamp: typeof timestamp === 'string' ? timestamp : undefined,
    };
    if (next.length === 0) segment.leafId = lastId;
    segments.push(segment);
    for (let i = next.length - 1; i >= 0; i--) stack.push({ at: next[i], depth: depth + 1 });
  }
  return segments;
}

/** Other branches leaving from any of these entries (the branch's own children excluded), with their newest leaf. */
export function forksOf(source: SessionSource, ids: readonly string[], branchIds: ReadonlySet<string>): ForkView[] {
  const forks: ForkView[] = [];
  for (const id of ids) {
    const kids = source.childrenOf(id);
    if (kids.length < 2) continue;
    for (const kid of kids) {
      const kidId = source.index.ids[kid];
      if (typeof kidId !== 'string' || branchIds.has(kidId)) continue;
      forks.push({ leafId: newestLeaf(source, kidId), preview: previewOf(source.body(kid)), count: 0 });
    }
  }
  return forks;
}
