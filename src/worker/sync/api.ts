// The sync part of the worker API. Credentials and the space key stay in the worker: the page
// sends them once (setting up) or as an encrypted pairing link, and gets back only where the space
// is, the status, and — to draw the QR code — the link encrypted with its code.
import {
  checkSpace,
  corsRule,
  createSpace,
  type DirectoryLike,
  newIdentity,
  openPairingLink,
  type PairingPayload,
  pairingLink,
  newCode,
  type SpaceSettings,
  spaceKeys,
  SyncError,
} from '../../sync/index.ts';
import type { CallContext } from '../protocol.ts';
import { memoryRefusal, type SyncRoom } from './room.ts';
import { publicView, type PublicSpace, type StoredSync } from './settings.ts';
import { problemOf, type SyncProblem, type SyncStatus } from './status.ts';
import type { SessionStore } from '../../storage/types.ts';

export type { SyncStatus, SyncProblem } from './status.ts';
export type { PublicSpace } from './settings.ts';
export type { SpaceSettings } from '../../sync/index.ts';

/** "Check" as the page shows it: each failure's code picks its fix; a CORS failure comes with the rule to paste. */
export interface CheckView {
  ok: boolean;
  error?: SyncProblem;
  /** ours: a space of this key is there; none: nothing yet; foreign: a space of another key. */
  space: 'ours' | 'none' | 'foreign';
  corsRule?: string;
}

/** What an opened pairing link shows before "Pair this device". */
export interface PairingView {
  from: string;
  where: string;
  space: PublicSpace;
}

/** A folder's handle as the folder transport takes it (the browser's handle has that shape). */
const dir = (h: FileSystemDirectoryHandle | undefined): DirectoryLike | undefined => h as unknown as DirectoryLike | undefined;

const noContext: CallContext = { signal: new AbortController().signal, progress: () => undefined };

function asProblem(e: unknown): SyncProblem {
  if (e instanceof SyncError) return problemOf(e);
  return { code: 'local', message: e instanceof Error ? e.message : String(e) };
}

/** S3 prefixes and WebDAV URLs end in '/', a folder space's name is as given. */
function tidy(space: SpaceSettings): SpaceSettings {
  if (space.kind === 's3') {
    const prefix = space.prefix.trim().replace(/^\/+/, '');
    return {
      ...space,
      endpoint: space.endpoint.trim().replace(/\/+$/, ''),
      region: space.region.trim() || 'auto',
      bucket: space.bucket.trim(),
      prefix: prefix && !prefix.endsWith('/') ? `${prefix}/` : prefix,
      accessKeyId: space.accessKeyId.trim(),
      secretAccessKey: space.secretAccessKey.trim(),
    };
  }
  if (space.kind === 'webdav') return { ...space, url: space.url.trim().endsWith('/') ? space.url.trim() : `${space.url.trim()}/` };
  return space;
}

/** The place for a new space beside a lost one: a fresh folder inside the same bucket, prefix or WebDAV folder. */
function freshPlace(space: SpaceSettings, suffix: string): SpaceSettings {
  if (space.kind === 's3') return { ...space, prefix: `${space.prefix}rho-${suffix}/` };
  if (space.kind === 'webdav') return { ...space, url: `${space.url}rho-${suffix}/` };
  return space;
}

export function createSyncApi(room: SyncRoom, store: SessionStore, origin: string) {
  let pending: PairingPayload | null = null;
  const stored = async (): Promise<StoredSync> => {
    const s = await room.deps.keeping.getSettings();
    if (!s) throw new SyncError('no-space', 'No sync space is set up on this device.');
    return s;
  };

  const check = async (space: SpaceSettings, handle: DirectoryLike | undefined, identity: string, signal: AbortSignal): Promise<CheckView> => {
    const transport = room.transportOf(space, handle);
    try {
      const result = await checkSpace({ transport, keys: await spaceKeys(identity) }, signal);
      if (result.ok) return { ok: true, space: result.space };
      const error = result.error ? problemOf(result.error) : { code: 'server' as const, message: 'The check failed.' };
      return { ok: false, space: result.space, error, ...(error.code === 'cors-blocked' ? { corsRule: corsRule(space.kind, origin) } : {}) };
    } catch (e) {
      return { ok: false, space: 'none', error: asProblem(e) };
    }
  };

  /** Joining a space is refused while the library is held in memory (nothing received would be kept). */
  const refusedHere = (): CheckView | null =>
    room.deps.memoryOnly ? { ok: false, space: 'none', error: problemOf(memoryRefusal(room.deps.memoryOnly)) } : null;

  /** Saves settings and starts over with a new device state (a new space, a pairing, a move). */
  const adopt = async (s: StoredSync): Promise<void> => {
    await room.deps.keeping.state.clear();
    await room.deps.keeping.setSettings(s);
    room.set({ error: null, applied: [], refused: [], trashed: [], lastSync: null, devices: [], spaceBytes: 0 });
    await room.load();
  };

  return {
    /** The sync status now. */
    async syncStatus(_p: Record<string, never> = {}, _ctx?: CallContext): Promise<SyncStatus> {
      return room.status;
    },

    /**
     * The status once it changed past `after` (a long poll: the page calls it again with the version
     * it got). `seenRound`: the round whose changes the page has taken in (null: none, the list it
     * read at boot has them); the status then leaves out `applied` unless a later round applied
     * changes, so a thousand sessions received are not sent again with every status after.
     */
    async syncWatch(params: { after: number; seenRound?: number | null }, ctx: CallContext = noContext): Promise<SyncStatus> {
      const status = await room.watch(params.after, ctx.signal);
      if (params.seenRound === undefined) return status;
      return (params.seenRound ?? status.appliedRound) === status.appliedRound ? { ...status, applied: [] } : status;
    },

    /** The page is visible or hidden, online or offline (rounds run by themselves only while visible and online). */
    async syncPage(params: { visible: boolean; online: boolean }, _ctx?: CallContext): Promise<SyncStatus> {
      room.schedule.setPage(params.visible, params.online);
      room.set({});
      return room.status;
    },

    /** A round now (focus, "Sync now"); resolves with the status after it. */
    async syncNow(_p: Record<string, never> = {}, ctx: CallContext = noContext): Promise<SyncStatus> {
      await room.current();
      room.schedule.kick();
      await room.round(ctx.signal);
      return room.status;
    },

    /** "Check": lists, writes, reads and deletes a probe; without settings, the space set up here. */
    async syncCheck(params: { space?: SpaceSettings; handle?: FileSystemDirectoryHandle } = {}, ctx: CallContext = noContext): Promise<CheckView> {
      if (params.space)
        return check(tidy(params.space), dir(params.handle), (await room.deps.keeping.getSettings())?.identity ?? (await newIdentity()), ctx.signal);
      const s = await stored();
      return check(s.space, s.handle, s.identity, ctx.signal);
    },

    /** Sets up a new space here (a new key) after a successful check; refuses a place holding another key's space. */
    async syncSetup(
      params: { space: SpaceSettings; handle?: FileSystemDirectoryHandle; deviceName: string },
      ctx: CallContext = noContext,
    ): Promise<CheckView> {
      const refused = refusedHere();
      if (refused) return refused;
      const space = tidy(params.space);
      const handle = dir(params.handle);
      const identity = await newIdentity();
      const checked = await check(space, handle, identity, ctx.signal);
      if (!checked.ok) return checked;
      if (checked.space === 'foreign')
        return {
          ...checked,
          ok: false,
          error: {
            code: 'no-space',
            message: `${room.transportOf(space, handle).where} already holds a sync space of another key: pair this device from one of that space's devices, or choose another prefix or folder.`,
          },
        };
      try {
        await createSpace(room.transportOf(space, handle), await spaceKeys(identity), Date.now(), ctx.signal);
      } catch (e) {
        return { ok: false, space: 'none', error: asProblem(e) };
      }
      await adopt({ space, identity, deviceName: params.deviceName.trim() || 'this device', ...(handle ? { handle } : {}) });
      room.schedule.kick();
      return { ok: true, space: 'ours' };
    },

    /** A new pairing link for this space, locked with a new code (both shown beside the QR code). */
    async syncPairingLink(params: { app: string }, _ctx?: CallContext): Promise<{ link: string; code: string }> {
      const s = await stored();
      const code = newCode();
      const link = await pairingLink(params.app, { v: 1, space: s.space, identity: s.identity, from: s.deviceName }, code);
      return { link, code };
    },

    /** Opens a pairing link with its code; keeps it here until "Pair this device" and shows only where it leads. */
    async syncOpenLink(params: { link: string; code?: string }, _ctx?: CallContext): Promise<PairingView> {
      pending = null;
      const payload = await openPairingLink(params.link, params.code);
      pending = payload;
      const where = payload.space.kind === 'folder' ? `folder ${payload.space.name}` : room.transportOf(payload.space).where;
      return { from: payload.from, where, space: publicView(payload.space) };
    },

    /** "Pair this device": joins the space of the link opened last (a folder space needs this device's handle of it). */
    async syncPair(params: { deviceName: string; handle?: FileSystemDirectoryHandle }, ctx: CallContext = noContext): Promise<CheckView> {
      if (!pending) throw new SyncError('bad-code', 'Open a pairing link first.');
      const refused = refusedHere();
      if (refused) return refused;
      const p = pending;
      const handle = dir(params.handle);
      const checked = await check(p.space, handle, p.identity, ctx.signal);
      if (!checked.ok) return checked;
      if (checked.space !== 'ours')
        return {
          ...checked,
          ok: false,
          error: { code: 'no-space', message: 'The link leads to a place with no sync space of this key (it was moved or removed): ask for a new link.' },
        };
      pending = null;
      await adopt({
        space: p.space,
        identity: p.identity,
        deviceName: params.deviceName.trim() || 'this device',
        ...(handle ? { handle } : {}),
      });
      room.schedule.kick();
      return checked;
    },

    /** This device leaves the space (other devices stop waiting for it); its library stays. */
    async syncLeave(_p: Record<string, never> = {}, ctx: CallContext = noContext): Promise<SyncStatus> {
      const { engine } = await room.current();
      await engine.leave(ctx.signal).catch(() => undefined);
      await room.deps.keeping.state.clear();
      await room.deps.keeping.setSettings(undefined);
      room.set({ error: null, applied: [], refused: [], trashed: [], lastSync: null });
      await room.load();
      return room.status;
    },

    /**
     * Cuts off a lost device: a new space (a new key) in a fresh folder of the same place, the
     * library uploaded again; the other devices pair again. This device leaves the old space.
     */
    async syncMoveSpace(_p: Record<string, never> = {}, ctx: CallContext = noContext): Promise<CheckView> {
      const s = await stored();
      const identity = await newIdentity();
      const space = freshPlace(s.space, crypto.randomUUID().slice(0, 8));
      const checked = await check(space, s.handle, identity, ctx.signal);
      if (!checked.ok) return checked;
      try {
        await createSpace(room.transportOf(space, s.handle), await spaceKeys(identity), Date.now(), ctx.signal);
      } catch (e) {
        return { ok: false, space: 'none', error: asProblem(e) };
      }
      const { engine } = await room.current();
      await engine.leave(ctx.signal).catch(() => undefined);
      await adopt({ ...s, space, identity });
      room.schedule.kick();
      return { ok: true, space: 'ours' };
    },

    /** Brings back a session another device's deletion moved to the trash here. */
    async syncUndoTrash(params: { undoToken: string }, _ctx?: CallContext): Promise<void> {
      const t = room.status.trashed.find((x) => x.undoToken === params.undoToken);
      if (!t) throw new SyncError('local', 'That deletion can no longer be undone here.');
      await store.withWriteLock(t.id, () => store.restore(params.undoToken));
      await store.flush();
      room.set({ trashed: room.status.trashed.filter((x) => x !== t) });
    },
  };
}
