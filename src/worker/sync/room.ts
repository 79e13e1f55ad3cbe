// The sync room: one engine over the library and the space set up on this device, the schedule
// that runs its rounds, and the status the page follows. Rounds of every tab of this device take
// one Web Lock, so two tabs never sync at once; the engine's state is read afresh each round.
import {
  createEngine,
  type DirectoryLike,
  folderTransport,
  type LocalCopy,
  retrying,
  s3Transport,
  type SpaceSettings,
  type SealFn,
  spaceKeys,
  SyncError,
  type SyncEngine,
  type SyncEvent,
  type Transport,
  webdavTransport,
} from '../../sync/index.ts';
import { withLock } from '../../storage/locks.ts';
import type { SessionStore } from '../../storage/types.ts';
import type { SessionSink } from '../import/session.ts';
import { LiveSchedule, type RoundOutcome, type Timers } from './live.ts';
import { storeLocal } from './local-store.ts';
import { publicView, type StoredSync, type SyncKeeping } from './settings.ts';
import { initialStatus, problemOf, type SyncStatus } from './status.ts';

export interface RoomDeps {
  store: SessionStore;
  keeping: SyncKeeping;
  /** The search index's sink for sessions a round adds. */
  sink?: (id: string) => SessionSink | null;
  /** After a round changed the library, before its status says so (the search index takes in what the round's sink gathered). */
  onLibraryChanged?: () => void | Promise<void>;
  /** The lock's name differs per OPFS root, so test workers of separate libraries do not wait on each other. */
  lockName?: string;
  timers?: Timers;
  now?: () => number;
  /** How packs are encrypted (the engine's default when absent). */
  seal?: SealFn;
  /** Awaited before each request to a space: its origin is made reachable (the service worker's list, net/connect-list.ts). */
  reach?: (space: SpaceSettings) => Promise<void>;
  /** How a space's transport is made (the default: S3, WebDAV or the folder's handle, retried). */
  transportFor?: (space: SpaceSettings, handle?: DirectoryLike) => Transport;
  /** Why the library is held in memory: set, no space is joined and no round runs (a reload would lose what it received). */
  memoryOnly?: string;
}

/** The refusal of a sync into a library held in memory. */
export function memoryRefusal(reason: string): SyncError {
  return new SyncError(
    'local',
    `Sync is off on this device: its library is held in memory only (${reason}), so whatever sync brought here would be lost when the page closes. Open the app in a normal (not private) window.`,
  );
}

/** The transport of a space, counting the requests it makes (the idle cost the sync screen and the bench show). */
export function countedTransport(
  space: SpaceSettings,
  handle: DirectoryLike | undefined,
  count: () => void,
  reach: (space: SpaceSettings) => Promise<void> = async () => undefined,
): Transport {
  const inner =
    space.kind === 's3'
      ? s3Transport(space)
      : space.kind === 'webdav'
        ? webdavTransport(space)
        : handle
          ? folderTransport(handle, space.name)
          : (() => {
              throw new SyncError('local', `The folder ${space.name} must be chosen again on this device.`);
            })();
  const counting =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      count();
      await reach(space);
      return fn(...args);
    };
  const counted: Transport = {
    kind: inner.kind,
    where: inner.where,
    put: counting(inner.put),
    get: counting(inner.get),
    ...(inner.head ? { head: counting(inner.head) } : {}),
    list: counting(inner.list),
    delete: counting(inner.delete),
  };
  return retrying(counted);
}

export class SyncRoom {
  status: SyncStatus = initialStatus();
  readonly schedule: LiveSchedule;
  private engine: { engine: SyncEngine; transport: Transport } | null = null;
  private waiters: (() => void)[] = [];
  private readonly now: () => number;

  private loading: Promise<void> = Promise.resolve();

  constructor(readonly deps: RoomDeps) {
    this.now = deps.now ?? Date.now;
    this.schedule = new LiveSchedule(() => this.scheduledRound(), deps.timers, this.now);
  }

  /** Reads the stored settings (at start, and after they change); a call meanwhile waits for it. */
  load(): Promise<void> {
    const read = this.read();
    this.loading = read.catch(() => undefined);
    return read;
  }

  private async read(): Promise<void> {
    const s = await this.deps.keeping.getSettings();
    this.engine = null;
    if (s) await this.open(s);
    else
      this.set({ configured: false, state: 'off', space: undefined, where: undefined, deviceName: undefined, device: undefined, devices: [], spaceBytes: 0 });
    this.schedule.setEnabled(Boolean(s));
    this.set({ live: this.schedule.active });
  }

  transportOf(space: SpaceSettings, handle?: DirectoryLike): Transport {
    const count = () => this.set({ requests: this.status.requests + 1 });
    return this.deps.transportFor ? this.deps.transportFor(space, handle) : countedTransport(space, handle, count, this.deps.reach);
  }

  private async open(s: StoredSync): Promise<void> {
    const keys = await spaceKeys(s.identity);
    const transport = this.transportOf(s.space, s.handle);
    const local = storeLocal(this.deps.store, {
      sink: this.deps.sink,
      now: this.now,
      onTrashed: (t) => this.set({ trashed: [t, ...this.status.trashed].slice(0, 50) }),
      deleted: { get: () => this.deps.keeping.getDeleted(), set: (l) => this.deps.keeping.setDeleted(l) },
    });
    const engine = createEngine({
      transport,
      keys,
      local,
      state: this.deps.keeping.state,
      deviceName: s.deviceName,
      now: this.now,
      seal: this.deps.seal,
      onEvent: (e) => this.onEvent(e),
    });
    this.engine = { engine, transport };
    const state = await this.deps.keeping.state.load();
    this.set({
      configured: true,
      space: publicView(s.space),
      where: transport.where,
      deviceName: s.deviceName,
      device: state?.device,
      state: this.status.error ? 'error' : 'idle',
    });
  }

  private onEvent(e: SyncEvent): void {
    if (e.type === 'progress') this.set({ progress: { phase: e.phase, done: e.done, total: e.total, bytes: e.bytes } });
  }

  /** The engine of the space set up here (throws when none is). */
  async current(): Promise<{ engine: SyncEngine; transport: Transport }> {
    await this.loading;
    if (!this.engine) throw new SyncError('no-space', 'No sync space is set up on this device.');
    return this.engine;
  }

  /** One round now, under the device's sync lock; the status tells its outcome. */
  async round(signal?: AbortSignal): Promise<RoundOutcome> {
    const { engine } = await this.current();
    if (this.deps.memoryOnly) {
      this.set({ state: 'error', progress: null, error: problemOf(memoryRefusal(this.deps.memoryOnly)) });
      return { retryable: false };
    }
    this.set({ state: 'syncing', progress: null });
    try {
      const report = await withLock(this.deps.lockName ?? 'rho-sessions:sync', () => engine.round(signal), 'exclusive', signal);
      const changed = report.applied.length > 0 || report.sentObjects > 0;
      if (report.applied.length) await this.deps.onLibraryChanged?.();
      const state = await this.deps.keeping.state.load();
      this.set({
        state: 'idle',
        progress: null,
        error: null,
        lastSync: this.now(),
        devices: report.devices,
        spaceBytes: report.spaceBytes,
        agreed: report.agreed,
        applied: report.applied.length ? report.applied : this.status.applied,
        appliedRound: report.applied.length ? this.status.rounds + 1 : this.status.appliedRound,
        refused: report.refused,
        device: state?.device,
        rounds: this.status.rounds + 1,
      });
      return changed ? 'changed' : 'quiet';
    } catch (error) {
      if (!(error instanceof SyncError)) {
        if ((error as DOMException)?.name === 'AbortError') {
          this.set({ state: 'idle', progress: null });
          throw error;
        }
        const wrapped = new SyncError('local', `Sync stopped: ${(error as Error)?.message ?? error}`, { cause: error });
        this.set({ state: 'error', progress: null, error: problemOf(wrapped) });
        return { retryable: true };
      }
      this.set({ state: 'error', progress: null, error: problemOf(error) });
      // CORS: a dropped preflight reads the same as a missing rule; waiting longer each time costs little
      return { retryable: error.transient || error.code === 'cors-blocked' };
    }
  }

  private async scheduledRound(): Promise<RoundOutcome> {
    if (!this.engine) return 'quiet';
    return this.round();
  }

  /** The user deleted a session here (its copy as it was): the next round tells the other devices. */
  async deletedHere(copy: LocalCopy): Promise<void> {
    if (!this.engine) return;
    const list = await this.deps.keeping.getDeleted();
    await this.deps.keeping.setDeleted([...list.filter((c) => c.copy !== copy.copy), copy]);
  }

  /** A deletion was undone before a round told it: nothing to tell. */
  async restoredHere(copy: string): Promise<void> {
    const list = await this.deps.keeping.getDeleted();
    if (list.some((c) => c.copy === copy)) await this.deps.keeping.setDeleted(list.filter((c) => c.copy !== copy));
  }

  /** Changes fields of the status and wakes the page's long poll. */
  set(patch: Partial<SyncStatus>): void {
    const schedule = this.schedule as LiveSchedule | undefined; // undefined while the constructor makes it
    this.status = { ...this.status, ...patch, live: schedule?.active ?? false, nextPollMs: schedule?.nextPollMs ?? 0, version: this.status.version + 1 };
    const waiting = this.waiters;
    this.waiters = [];
    for (const w of waiting) w();
  }

  /** The status once its version is past `after` (at once when it already is). */
  async watch(after: number, signal?: AbortSignal): Promise<SyncStatus> {
    while (this.status.version <= after) {
      signal?.throwIfAborted();
      await new Promise<void>((resolve, reject) => {
        const abort = () => reject(signal?.reason);
        this.waiters.push(() => {
          signal?.removeEventListener('abort', abort);
          resolve();
        });
        signal?.addEventListener('abort', abort, { once: true });
      });
    }
    return this.status;
  }
}
