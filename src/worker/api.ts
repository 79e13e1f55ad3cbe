import { piView } from '../storage/pi-view.ts';
import type { WorkerEnv } from './env.ts';
import { createLinkedApi, type LinkedEnv } from './linked/api.ts';
import { createLibraryApi } from './library/api.ts';
import { createReaderApi } from './reader/api.ts';
import { createSubagentApi } from './subagents/api.ts';
import { createShareApi } from './share/api.ts';
import { createSearchApi, createSearchIndexOf } from './search/api.ts';
import { createSyncApi } from './sync/api.ts';
import { keepingWithChanges } from './sync/settings.ts';
import { type SyncEnv, wireSync } from './sync/wire.ts';
import { hostApiOf, type HostKeysEnv } from './host/wiring.ts';
import { type ConnectEnv, type ConnectList, createConnectList } from './net/connect-list.ts';

// Library calls that change sessions: the search index follows each of them (in the background;
// a query meanwhile brings it up to date itself).
const WRITES = [
  'importFiles',
  'importText',
  'deleteSession',
  'undoDelete',
  'renameSession',
  'labelEntry',
  'appendEntries',
  'forkBranch',
  'rebuildIndex',
] as const;

/**
 * The worker's API: a plain object of async functions, each taking one params object and the
 * call context. The page sees its type only (`Api`), through client.ts.
 */
export function createApi(env: WorkerEnv & Partial<LinkedEnv> & SyncEnv & HostKeysEnv & ConnectEnv) {
  // What reads sessions as pi (the reader, search, subagent families) sees Claude Code and Codex
  // files as their pi conversions; import, linked folders and the library's writes keep the originals.
  const piEnv = { ...env, store: piView(env.store) };
  const index = createSearchIndexOf(piEnv);
  // Imports make each new session's part of the search index from the bytes they write.
  const library = createLibraryApi(
    env,
    env.indexAtImport === false ? {} : { sink: index.sinkFor, beforeImport: index.importStarted, afterImport: index.commit },
  );
  // The origins the app may reach (the service worker refuses others): the providers in Models and the sync space.
  let connect: ConnectList | null = null;
  const host = hostApiOf(
    env,
    () => changed(),
    () => connect?.refresh() ?? Promise.resolve(),
  );
  let keeping = env.syncKeeping;
  if (env.connectOrigins && keeping) {
    const stored = keeping;
    const list = createConnectList({
      providers: host.providers,
      space: async () => (await stored.getSettings())?.space,
      write: env.connectOrigins,
    });
    // A new or removed space changes what the app may reach.
    keeping = keepingWithChanges(stored, () => list.spaceChanged());
    connect = list;
    void list.refresh().catch(() => undefined);
  }
  const list = connect;
  // The sync room: a change here goes out to the space within about a second; a deletion becomes a trash record.
  const room = wireSync({ ...env, syncKeeping: keeping, ...(list ? { syncReach: (space) => list.reach(space) } : {}) }, library, index);
  const changed = () => {
    index.syncSoon();
    room.schedule.localChange();
  };
  for (const name of WRITES) {
    const call = library[name] as (p: unknown, c: unknown) => Promise<unknown>;
    (library as Record<string, unknown>)[name] = (p: unknown, c: unknown) => call(p, c).finally(changed);
  }
  const linked = createLinkedApi(env);
  const sync = linked.syncLinkedFolder;
  linked.syncLinkedFolder = (p, c) => sync(p, c).finally(changed);
  const share = createShareApi(env);
  const importEncrypted = share.importEncrypted;
  share.importEncrypted = (p, c) => importEncrypted(p, c).finally(changed);
  // While the reader is in use, pending background indexing waits (see readerBusy).
  const reader = createReaderApi(piEnv) as Record<string, (p: unknown, c: unknown) => Promise<unknown>>;
  for (const name of Object.keys(reader)) {
    const call = reader[name];
    reader[name] = (p, c) => {
      index.readerBusy();
      return call(p, c);
    };
  }
  return {
    ...library,
    ...host.calls,
    ...(reader as ReturnType<typeof createReaderApi>),
    ...createSubagentApi(piEnv),
    ...linked,
    ...share,
    ...createSearchApi(index, piEnv),
    ...createSyncApi(room, env.store, env.origin ?? 'http://localhost:4173'),
  };
}

/** The type the page programs against. */
export type Api = ReturnType<typeof createApi>;
