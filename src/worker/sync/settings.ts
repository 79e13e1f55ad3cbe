// What the worker keeps of the sync space: its settings with their credentials, the space's
// identity, this device's name, and the engine's state. IndexedDB in the app (only the worker reads
// it), memory in tests. None of it is ever posted to the page whole: `publicView` strips secrets.
import type { DirectoryLike, LocalCopy, SpaceKind, SpaceSettings, StateStore, SyncState } from '../../sync/index.ts';

/** The device's sync settings as stored. */
export interface StoredSync {
  space: SpaceSettings;
  /** `AGE-SECRET-KEY-1…`. */
  identity: string;
  deviceName: string;
  /** A folder space's handle (structured-cloneable). */
  handle?: DirectoryLike;
}

/** Where the worker keeps its sync records. */
export interface SyncKeeping {
  getSettings(): Promise<StoredSync | undefined>;
  setSettings(s: StoredSync | undefined): Promise<void>;
  state: StateStore & { clear(): Promise<void> };
  /** Sessions the user deleted here, not yet told to the space (kept across reloads). */
  getDeleted(): Promise<LocalCopy[]>;
  setDeleted(list: LocalCopy[]): Promise<void>;
}

/** The settings as the page may see them: where, never a secret. */
export interface PublicSpace {
  kind: SpaceKind;
  /** S3: endpoint, region, bucket, prefix, access key id. WebDAV: url, username. Folder: name. */
  fields: Record<string, string>;
}

export function publicView(space: SpaceSettings): PublicSpace {
  if (space.kind === 's3') {
    const { endpoint, region, bucket, prefix, accessKeyId } = space;
    return { kind: 's3', fields: { endpoint, region, bucket, prefix, accessKeyId } };
  }
  if (space.kind === 'webdav') return { kind: 'webdav', fields: { url: space.url, username: space.username } };
  return { kind: 'folder', fields: { name: space.name } };
}

/** The same records, with `changed` awaited after each settings write has landed. */
export function keepingWithChanges(keeping: SyncKeeping, changed: () => Promise<void>): SyncKeeping {
  return {
    ...keeping,
    setSettings: async (s) => {
      await keeping.setSettings(s);
      await changed();
    },
  };
}

/** Settings and state in memory (tests, and a device whose IndexedDB is unavailable). */
export function memoryKeeping(): SyncKeeping {
  let settings: StoredSync | undefined;
  let state: SyncState | null = null;
  let deleted: LocalCopy[] = [];
  return {
    getDeleted: async () => [...deleted],
    setDeleted: async (list) => {
      deleted = [...list];
    },
    getSettings: async () => settings,
    setSettings: async (s) => {
      settings = s;
    },
    state: {
      load: async () => (state ? structuredClone(state) : null),
      save: async (s) => {
        state = structuredClone(s);
      },
      clear: async () => {
        state = null;
      },
    },
  };
}

/** Settings and state in IndexedDB through idb-keyval's store `db`. */
export function idbKeeping(kv: {
  get<T>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown): Promise<void>;
  del(key: string): Promise<void>;
}): SyncKeeping {
  return {
    getSettings: () => kv.get<StoredSync>('settings'),
    setSettings: (s) => (s ? kv.set('settings', s) : kv.del('settings')),
    getDeleted: async () => (await kv.get<LocalCopy[]>('deleted')) ?? [],
    setDeleted: (list) => kv.set('deleted', list),
    state: {
      load: async () => (await kv.get<SyncState>('state')) ?? null,
      save: (s) => kv.set('state', s),
      clear: () => kv.del('state'),
    },
  };
}
