// The linked-folder part of the worker API. The page keeps the folders' handles (it alone may ask for
// permission) and sends one with each call; the worker reads and writes through it (FolderDisk) and
// keeps what each sync saw, so the next one reads only what changed.
import type { FolderDisk } from '../../storage/folder.ts';
import { createFsaDisk } from '../../storage/fsa-disk.ts';
import { withLock } from '../../storage/locks.ts';
import { baseId } from '../../storage/names.ts';
import type { WorkerEnv } from '../env.ts';
import { ApiFailure, type CallContext } from '../protocol.ts';
import type { FolderState } from './plan.ts';
import { type SyncReport, syncFolder } from './sync.ts';
import { planWriteBack, type WriteBackPlan, writeBack } from './write-back.ts';

export type { SyncReport } from './sync.ts';
export type { WriteBackPlan, WrittenEntry } from './write-back.ts';

/** Where the worker keeps each folder's sync state (IndexedDB in the app, memory in tests). */
export interface LinkedStateStore {
  get(key: string): Promise<FolderState | undefined>;
  set(key: string, state: FolderState): Promise<void>;
}

/** What the linked API needs beyond the worker's env. */
export interface LinkedEnv extends WorkerEnv {
  linkedState?: LinkedStateStore;
  /** How a handle becomes a FolderDisk (tests hand in a memory folder). */
  openFolder?: (handle: FileSystemDirectoryHandle) => FolderDisk;
}

/** A session of the library as it stands in a linked folder. */
export interface LinkedSession {
  id: string;
  path: string;
  folderSize: number;
  librarySize: number;
}

function memoryState(): LinkedStateStore {
  const map = new Map<string, FolderState>();
  return { get: async (k) => map.get(k), set: async (k, s) => void map.set(k, s) };
}

const noContext: CallContext = { signal: new AbortController().signal, progress: () => undefined };

/** Builds the linked-folder calls. */
export function createLinkedApi(env: LinkedEnv) {
  const { store } = env;
  const states = env.linkedState ?? memoryState();
  const open = env.openFolder ?? createFsaDisk;
  // One sync per folder at a time, across tabs too (focus, polling and another tab may all ask at once).
  const locked = <T>(key: string, fn: () => Promise<T>, signal?: AbortSignal) => withLock(`rho-sessions:linked:${key}`, fn, 'exclusive', signal);

  const fileOf = async (key: string, id: string): Promise<string> => {
    const state = (await states.get(key)) ?? {};
    // The file of this session, else of its family (the agent's file became a variant of ours when it diverged).
    let paths = Object.entries(state).filter(([, s]) => s.id === id);
    if (!paths.length) paths = Object.entries(state).filter(([, s]) => s.id !== undefined && baseId(s.id) === baseId(id));
    if (!paths.length) throw new ApiFailure('not-found', `Session ${id} is not in this linked folder.`);
    // The file written first (the shortest, oldest name) is the agent's own; later ones are write-backs beside it.
    return paths.map(([p]) => p).sort()[0];
  };

  return {
    /** Syncs a linked folder: reads only files whose size or time changed; progress in bytes; cancellable. */
    async syncLinkedFolder(params: { key: string; handle: FileSystemDirectoryHandle }, ctx: CallContext = noContext): Promise<SyncReport> {
      return locked(
        params.key,
        async () => {
          const folder = open(params.handle);
          const before = (await states.get(params.key)) ?? {};
          try {
            const { report, state } = await syncFolder(folder, before, {
              store,
              signal: ctx.signal,
              onProgress: (done, total, label) => ctx.progress({ done, total, label }),
            });
            await states.set(params.key, state);
            return report;
          } catch (e) {
            if ((e as DOMException)?.name === 'NotAllowedError')
              throw new ApiFailure('unsupported', `The browser no longer lets the app read ${folder.name}: reconnect it.`, folder.name);
            throw e;
          }
        },
        ctx.signal,
      );
    },

    /** The library's sessions that came from this folder, with their sizes there and here (write-back candidates are longer here). */
    async linkedSessions(params: { key: string }, _ctx?: CallContext): Promise<LinkedSession[]> {
      const state = (await states.get(params.key)) ?? {};
      const out: LinkedSession[] = [];
      const seen = new Set<string>();
      // A member some file of the folder holds already (a write-back beside the agent's file) is not offered again.
      const inFolder = new Set(Object.values(state).flatMap((s) => (s.id ? [s.id] : [])));
      for (const [path, s] of Object.entries(state)) {
        if (!s.id) continue;
        // The folder's file matched one of a family (the session and the variants kept when copies
        // diverged): every member is listed, so one that grew elsewhere can go back as a new file.
        const family = await store.family(baseId(s.id));
        for (const member of family.length ? family : [await store.get(s.id)]) {
          if (!member || seen.has(member.id)) continue;
          if (member.id !== s.id && (inFolder.has(member.id) || !(member.size > s.size))) continue;
          seen.add(member.id);
          out.push({ id: member.id, path, folderSize: s.size, librarySize: member.size });
        }
      }
      return out;
    },

    /** What writing a session back to its linked folder would write (for the confirmation). */
    async planWriteBack(params: { key: string; handle: FileSystemDirectoryHandle; id: string }, _ctx?: CallContext): Promise<WriteBackPlan> {
      return planWriteBack(open(params.handle), store, params.id, await fileOf(params.key, params.id), env.now());
    },

    /** Writes a confirmed plan back: an append to the agent's file, or a new file beside it. */
    async writeBack(
      params: { key: string; handle: FileSystemDirectoryHandle; plan: WriteBackPlan },
      _ctx?: CallContext,
    ): Promise<{ written: number; target: string }> {
      return locked(params.key, async () => {
        const folder = open(params.handle);
        const result = await writeBack(folder, store, params.plan);
        // The folder now holds what we hold: the next sync finds it identical.
        const state = (await states.get(params.key)) ?? {};
        const stat = await folder.stat(result.target);
        if (stat) state[result.target] = { size: stat.size, modified: stat.modified, id: params.plan.id };
        await states.set(params.key, state);
        return result;
      });
    },
  };
}
