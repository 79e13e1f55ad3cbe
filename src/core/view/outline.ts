import { children, leafOf } from '../tree.ts';
import type { Entry, ParsedSession } from '../types.ts';
import { contentText, isObject, str } from './parts.ts';
import type { ForkView, TreeSegment } from './types.ts';

const PREVIEW_CHARS = 90;

/** A one-line preview of an entry: user or assistant text, or a summary; '' for others. */
export function previewOf(entry: Entry): string {
  let text = '';
  if (entry.type === 'message' && isObject(entry.message)) {
    const role = entry.message.role;
    if (role === 'user' || role === 'assistant') text = contentText(entry.message.content);
  } else if (entry.type === 'branch_summary' || entry.type === 'compaction') text = str(entry.summary);
  else if (entry.type === 'custom_message') text = contentText(entry.content);
  text = text.replace(/<attachment[\s\S]*?<\/attachment>/g, '').replace(/[*_`#>]+/g, '').replace(/\s+/g, ' ').trim();
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS - 1)}…` : text;
}

function idOf(entry: Entry): string | null {
  return typeof entry.id === 'string' ? entry.id : null;
}

/** Follows a chain from `start` while each entry has exactly one child. */
function runFrom(session: ParsedSession, start: Entry, seen: Set<string>): { entries: Entry[]; next: Entry[] } {
  const entries: Entry[] = [];
  let at: Entry | undefined = start;
  while (at) {
    const id = idOf(at);
    if (id === null || seen.has(id)) break;
    seen.add(id);
    entries.push(at);
    const kids = children(session, id);
    if (kids.length !== 1) return { entries, next: kids };
    at = kids[0];
  }
  return { entries, next: [] };
}

/**
 * The session's tree compressed into runs (chains between forks), in depth-first order with the
 * oldest child first, marking the runs on the active branch. Iterative: depth is unbounded.
 */
export function buildOutline(session: ParsedSession, activeIds: ReadonlySet<string>): TreeSegment[] {
  const segments: TreeSegment[] = [];
  const seen = new Set<string>();
  const roots = children(session, null);
  const stack: Array<{ entry: Entry; depth: number }> = [];
  for (let i = roots.length - 1; i >= 0; i--) stack.push({ entry: roots[i], depth: 0 });
  while (stack.length) {
    const { entry, depth } = stack.pop()!;
    const { entries, next } = runFrom(session, entry, seen);
    if (!entries.length) continue;
    const last = entries[entries.length - 1];
    let preview = '';
    for (const e of entries) if ((preview = previewOf(e))) break;
    const segment: TreeSegment = {
      firstId: idOf(entries[0])!,
      lastId: idOf(last)!,
      depth,
      count: entries.length,
      preview,
      active: activeIds.has(idOf(last)!),
      timestamp: typeof last.timestamp === 'string' ? last.timestamp : undefined,
    };
    if (next.length === 0) segment.leafId = segment.lastId;
    segments.push(segment);
    for (let i = next.length - 1; i >= 0; i--) stack.push({ entry: next[i], depth: depth + 1 });
  }
  return segments;
}

/** Other branches leaving from any of these entries (the branch's own children excluded), with their newest leaf. */
export function forksOf(session: ParsedSession, ids: readonly string[], branchIds: ReadonlySet<string>): ForkView[] {
  const forks: ForkView[] = [];
  for (const id of ids) {
    const kids = children(session, id);
    if (kids.length < 2) continue;
    for (const kid of kids) {
      const kidId = idOf(kid);
      if (kidId === null || branchIds.has(kidId)) continue;
      forks.push({ leafId: leafOf(session, kidId) ?? kidId, preview: previewOf(kid), count: 0 });
    }
  }
  return forks;
}
