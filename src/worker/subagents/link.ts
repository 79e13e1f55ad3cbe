// Subagent transcripts found in an import (a folder, a zip bundle, a linked folder) are stored as
// children of their parent: the child's index record names the parent and the entry that started it.
import { claudeSubagentPlace, sourceIds } from '../../core/formats/sources.ts';
import { findSubagentStart, parentIdFromStem, subagentPlace, type Entry, type SubagentLink } from '../../core/index.ts';
import { HEAD_BYTES } from '../../core/formats/index.ts';
import { piView } from '../../storage/pi-view.ts';
import { parseBlob } from '../reader/parse-blob.ts';
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
  // The parent's entries are read as pi (a Claude Code or Codex parent: its conversion).
  const pi = piView(store);
  // Which agent wrote each file, from the index (no file is opened for it).
  const agents = new Map<string, SessionSummary['agent']>();
  const list = stored.some((c) => !subagentPlace(c.path, paths)) ? await store.list() : [];
  for (const s of list) agents.set(s.id, s.agent);
  const foreign = createForeignParents(store, known, agents);
  // Children stored loose before their parent, which this import brings: they link now.
  const waiting = await foreign.waitingFor(stored, list);
  for (const child of [...stored, ...waiting]) {
    signal?.throwIfAborted();
    const agent = agents.get(child.id);
    const found = agent === 'claude-code' || agent === 'codex' ? await foreign.placeOf(child, agent) : pathPlace(child, paths);
    if (!found) continue;
    const summary = await store.get(child.id);
    if (!summary) continue;
    const { place } = found;
    let parentId = found.parentId ?? idOf.get(`${found.parentStem}.jsonl`) ?? null;
    if (!parentId) {
      const named = found.namedParent;
      parentId = named && (await store.get(named)) ? named : null;
    }
    if (!parentId || parentId === child.id) continue;
    if (summary.parentOf === parentId && summary.subagent?.name === place.name) {
      linked.set(child.id, parentId);
      continue;
    }
    let entries = entriesOf.get(parentId);
    if (!entries) {
      entries = (await parseBlob(await pi.readFile(parentId), { validate: false })).entries;
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

/** A Claude Code file whose records are all a subagent's: its conversion's id is `agent-<agentId>` (a variant's `agent-<agentId>~<n>`). */
const isClaudeChild = (id: string) => id.startsWith('agent-');

/** Where a child was found: its layout and name, and its parent by store id, by the parent file's path, or by a store id its folder names. */
interface FoundPlace {
  place: Pick<SubagentLink, 'layout' | 'name' | 'run'>;
  parentId?: string;
  parentStem?: string;
  namedParent?: string | null;
}

/** pi's and omp's layouts, told by the path. */
function pathPlace(child: StoredPath, paths: ReadonlySet<string>): FoundPlace | null {
  const place = subagentPlace(child.path, paths);
  return place ? { place, parentStem: place.parentStem, namedParent: parentIdFromStem(place.parentStem) } : null;
}

/**
 * Claude Code's and Codex's children. Claude Code: by the path (`<session>/subagents/agent-<id>.jsonl`
 * beside `<session>.jsonl`, whose name is the session id). Codex: by the content (a spawned child's
 * session_meta names its parent thread). A parent not in the same import is the stored file of that
 * agent whose own first records carry that session id (its store id is its conversion's, which may differ).
 */
function createForeignParents(store: SessionStore, known: StoredPath[], agents: ReadonlyMap<string, SessionSummary['agent']>) {
  const heads = new Map<string, ReturnType<typeof sourceIds>>();
  const idsOf = async (id: string) => {
    let ids = heads.get(id);
    if (!ids) {
      ids = sourceIds(await store.readRange(id, 0, HEAD_BYTES));
      heads.set(id, ids);
    }
    return ids;
  };
  // The file of `agent` whose session id is `sessionId` and that is no subagent itself: this import's first, then the library's.
  const parentBySessionId = async (agent: 'claude-code' | 'codex', sessionId: string, childId: string): Promise<string | null> => {
    const seen = new Set<string>([childId]);
    for (const id of [...known.map((k) => k.id), ...agents.keys()]) {
      if (seen.has(id) || agents.get(id) !== agent) continue;
      seen.add(id);
      const ids = await idsOf(id);
      if (ids.sessionId === sessionId && ids.agentId === null && ids.parentThreadId === null) return id;
    }
    return null;
  };
  // The session a child names as its parent: Claude Code's sidechain records carry the parent's sessionId, Codex's session_meta its parent thread.
  const namedParentOf = (ids: ReturnType<typeof sourceIds>) => (ids.format === 'claude-code' ? (ids.agentId ? ids.sessionId : null) : ids.parentThreadId);
  return {
    /** Stored children without a parent whose records name a session of `stored` (read only when `stored` holds a possible parent). */
    async waitingFor(stored: StoredPath[], list: SessionSummary[]): Promise<StoredPath[]> {
      const parents = new Set<string>();
      for (const s of stored) {
        const agent = agents.get(s.id);
        if (agent !== 'codex' && (agent !== 'claude-code' || isClaudeChild(s.id))) continue;
        const ids = await idsOf(s.id);
        if (ids.sessionId && ids.agentId === null && ids.parentThreadId === null) parents.add(`${agent} ${ids.sessionId}`);
      }
      if (!parents.size) return [];
      const mine = new Set(stored.map((s) => s.id));
      const out: StoredPath[] = [];
      for (const s of list) {
        if (s.parentOf || mine.has(s.id) || !(s.agent === 'codex' || (s.agent === 'claude-code' && isClaudeChild(s.id)))) continue;
        const named = namedParentOf(await idsOf(s.id));
        if (named && parents.has(`${s.agent} ${named}`)) out.push({ path: s.path, id: s.id });
      }
      return out;
    },
    async placeOf(child: StoredPath, agent: 'claude-code' | 'codex'): Promise<FoundPlace | null> {
      if (agent === 'claude-code') {
        const place = claudeSubagentPlace(child.path);
        if (!place) {
          // A file dropped loose: a subagent's conversion (all its records are sidechain records) names its agent and its parent's session.
          if (!isClaudeChild(child.id)) return null;
          const { agentId, sessionId } = await idsOf(child.id);
          if (!agentId || !sessionId) return null;
          return { place: { layout: 'claude', name: agentId }, parentId: (await parentBySessionId('claude-code', sessionId, child.id)) ?? undefined };
        }
        const found: FoundPlace = { place: { layout: 'claude', name: place.name }, parentStem: place.parentStem };
        const inImport = known.find((k) => k.path === `${place.parentStem}.jsonl`);
        if (inImport) return { ...found, parentId: inImport.id };
        const sessionId = place.parentStem.split('/').pop() ?? '';
        return { ...found, parentId: (await parentBySessionId('claude-code', sessionId, child.id)) ?? undefined };
      }
      const { parentThreadId, sessionId } = await idsOf(child.id);
      if (!parentThreadId) return null;
      const place = { layout: 'codex' as const, name: sessionId ?? child.id };
      return { place, parentId: (await parentBySessionId('codex', parentThreadId, child.id)) ?? undefined };
    },
  };
}

/** The children of a session in the store's list, in the order they started. */
export function childrenOf(list: SessionSummary[], parentId: string): SessionSummary[] {
  return list.filter((s) => s.parentOf === parentId).sort((a, b) => a.created.localeCompare(b.created));
}
