import { openBranch, type ReaderBranch, type SessionSource } from '../../core/view/index.ts';
import type { SessionStore } from '../../storage/types.ts';
import { ApiFailure } from '../protocol.ts';
import { openStoredSource } from './stored-source.ts';

/** An open session in the worker: its envelope index with the bodies read so far, and its branches. */
export interface OpenSession {
  source: SessionSource;
  stamp: string | null;
  branches: Map<string, ReaderBranch>;
}

const MAX_SESSIONS = 2;
const MAX_BRANCHES = 3;

/** The store's change stamp of a session (size and last write), when the store can tell. */
async function stampOf(store: SessionStore, id: string): Promise<string | null> {
  const get = (store as { get?: (id: string) => Promise<{ size: number; modified: number } | null> }).get;
  if (typeof get !== 'function') return null;
  const summary = await get.call(store, id);
  if (!summary) throw new ApiFailure('not-found', 'This session is not in the library (it may have been deleted).');
  return `${summary.size}:${summary.modified}`;
}

/**
 * A small LRU of parsed sessions, so scrolling asks for windows without reparsing. An entry is
 * dropped when the store's stamp changes or another context announces a change on the
 * 'rho-sessions' channel.
 */
export function createReaderCache(store: SessionStore) {
  const open = new Map<string, OpenSession>();
  const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel('rho-sessions') : null;
  channel?.addEventListener('message', (event: MessageEvent<{ type?: string; ids?: string[] }>) => {
    if (event.data?.type === 'changed') for (const id of event.data.ids ?? []) open.delete(id);
  });

  async function session(id: string): Promise<OpenSession> {
    if (typeof id !== 'string' || !id) throw new ApiFailure('invalid-input', 'A session id is needed.');
    const stamp = await stampOf(store, id);
    const cached = open.get(id);
    if (cached && cached.stamp === stamp) {
      open.delete(id);
      open.set(id, cached);
      return cached;
    }
    const source = await openStoredSource(store, id);
    const { index } = source;
    if (!index.isSession) throw new ApiFailure('not-a-session', index.problems[0]?.message ?? 'This file is not a session.', id, index.problems[0]?.line);
    const entry: OpenSession = { source, stamp, branches: new Map() };
    open.set(id, entry);
    while (open.size > MAX_SESSIONS) open.delete(open.keys().next().value as string);
    return entry;
  }

  /** The rendered branch ending at leafId (the file's leaf when null), cached per session. */
  function branchOf(entry: OpenSession, leafId: string | null): ReaderBranch {
    const key = leafId ?? '';
    let branch = entry.branches.get(key);
    if (branch) {
      entry.branches.delete(key);
      entry.branches.set(key, branch);
      return branch;
    }
    branch = openBranch(entry.source, leafId);
    entry.branches.set(key, branch);
    while (entry.branches.size > MAX_BRANCHES) entry.branches.delete(entry.branches.keys().next().value as string);
    return branch;
  }

  return { session, branchOf, forget: (id: string) => open.delete(id) };
}
