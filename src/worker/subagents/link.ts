// Subagent transcripts found in an import (a folder, a zip bundle, a linked folder) are stored as
// children of their parent: the child's index record names the parent and the entry that started it.
import { findSubagentStart, parentIdFromStem, parse, subagentPlace, type Entry } from '../../core/index.ts';
import type { SessionStore, SessionSummary } from '../../storage/types.ts';

/** A stored file of an import: the path it came with and the store id it got. */
export interface StoredPath {
  path: string;
  id: string;
}

/**
 * Links every child among `stored` to its parent: the parent's file in the same import, else the
 * stored session the folder's name points to (`known`: every stored path of the same folder, which
 * may hold the parent). Returns child id → parent id for the report.
 */
export async function linkSubagents(
  store: SessionStore,
  stored: StoredPath[],
  signal?: AbortSignal,
  known: StoredPath[] = stored,
): Promise<Map<string, string>> {
  const paths = new Set(known.map((s) => s.path));
  const idOf = new Map(known.map((s) => [s.path, s.id]));
  const entriesOf = new Map<string, readonly Entry[]>();
  const linked = new Map<string, string>();
  for (const child of stored) {
    signal?.throwIfAborted();
    const place = subagentPlace(child.path, paths);
    if (!place) continue;
    let parentId = idOf.get(`${place.parentStem}.jsonl`) ?? null;
    if (!parentId) {
      const named = parentIdFromStem(place.parentStem);
      parentId = named && (await store.get(named)) ? named : null;
    }
    if (!parentId || parentId === child.id) continue;
    const summary = await store.get(child.id);
    if (!summary) continue;
    if (summary.parentOf === parentId && summary.subagent?.name === place.name) {
      linked.set(child.id, parentId);
      continue;
    }
    let entries = entriesOf.get(parentId);
    if (!entries) {
      entries = parse(await store.readBytes(parentId), { validate: false }).entries;
      entriesOf.set(parentId, entries);
    }
    const start = findSubagentStart(entries, { name: place.name, started: summary.created });
    await store.setParent(child.id, {
      parentOf: parentId,
      subagent: { layout: place.layout, name: place.name, ...(place.run !== undefined ? { run: place.run } : {}), ...(start ?? {}) },
    });
    linked.set(child.id, parentId);
  }
  return linked;
}

/** The children of a session in the store's list, in the order they started. */
export function childrenOf(list: SessionSummary[], parentId: string): SessionSummary[] {
  return list.filter((s) => s.parentOf === parentId).sort((a, b) => a.created.localeCompare(b.created));
}
