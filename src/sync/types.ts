// README — the sync room's interface (docs/sync-format.md explains the format behind it).
//
// A *sync space* is storage the user owns (an S3 bucket, a WebDAV folder, a local folder another
// tool syncs) where every device keeps its own immutable, encrypted objects. This file is what the
// rest of the app programs against:
//   - `SpaceSettings`   where the space is (kept with the app's settings, never in the space in clear);
//   - `Transport`       put / get / list / delete-own over one space, errors classified (`SyncError`);
//   - `SpaceKeys`       the space's identity (an age X25519 secret key) and what is derived from it;
//   - `PairingPayload`  what a pairing link carries (encrypted with a short code);
//   - `LocalSide`       what the engine needs from the device (the worker's store, or a folder in Node);
//   - `SyncEngine`      one round both ways (`round`), "Check", and what it reports (`SyncEvent`).
// Everything here runs in the worker and in Node: no DOM, no `node:` modules.
// Wiring (all from src/sync/index.ts): `transportFor(settings, handle?)`, `spaceKeys(identity)`, a
// LocalSide over the store (key = header id, copy = store id, `create` with variantOf = a variant,
// `trash` = the library's trash), a StateStore in IndexedDB, then `createEngine(deps).round()` on
// a poll / focus / online; `check()` for "Check"; `newIdentity` + `createSpace` for a new space;
// `pairingLink` / `openPairingLink` / `newCode` for pairing; `corsRule(kind, origin)` for the rule
// to paste. test/sync/servers.ts starts s3rver, webdav-server and a fault proxy for e2e specs.
import type { PackHeader } from './pack.ts';
import type { BlockCache } from './prefix.ts';
import type { SealFn } from './seal.ts';

/** The three kinds of space. */
export type SpaceKind = 's3' | 'webdav' | 'folder';

/** An S3-compatible bucket (R2, B2, AWS, MinIO, Wasabi, Garage…), reached with SigV4-signed requests. */
export interface S3Settings {
  kind: 's3';
  /** e.g. `https://<account>.r2.cloudflarestorage.com`, `https://s3.us-west-002.backblazeb2.com`, `http://127.0.0.1:4569`. */
  endpoint: string;
  /** e.g. `auto` (R2), `us-west-002` (B2), `us-east-1`. */
  region: string;
  bucket: string;
  /** A folder inside the bucket ('' or ending in '/'), e.g. `rho/`. */
  prefix: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/** A WebDAV folder (Nextcloud, ownCloud, Synology, rclone serve, Apache mod_dav). */
export interface WebDavSettings {
  kind: 'webdav';
  /** The folder's URL, ending in '/'. */
  url: string;
  username: string;
  /** The password or app token. */
  password: string;
}

/** A local folder another tool syncs (Syncthing, Dropbox, iCloud Drive): no credentials. */
export interface FolderSettings {
  kind: 'folder';
  /** The folder's name or path, for messages. The handle itself is kept beside the settings (IndexedDB) or is a path (Node). */
  name: string;
}

export type SpaceSettings = S3Settings | WebDavSettings | FolderSettings;

/** One object of the space as a listing shows it: only opaque names, sizes and times. */
export interface SpaceObject {
  /** Its name relative to the space's root (the transport adds the bucket prefix / URL), e.g. `rs1/3f9a…/0000000012-1c0e…`. */
  name: string;
  size: number;
  /** ms since epoch, as the provider reports it (0 when it does not). */
  modified: number;
}

/**
 * The storage under a space, as small as the engine needs. Names are relative to the space's root
 * and use '/' between parts. Writes are whole objects; nothing is conditional (B2 and s3rver ignore
 * If-None-Match), so the engine never writes a name twice with different meaning and never deletes
 * another device's objects.
 */
export interface Transport {
  readonly kind: SpaceKind;
  /** Where this is, for messages ("S3 bucket sessions at https://…", "WebDAV https://…"), never with credentials. */
  readonly where: string;
  /** Stores a whole object (replacing one of the same name, which only its own writer ever does). */
  put(name: string, bytes: Uint8Array, signal?: AbortSignal): Promise<void>;
  /** The whole object. Throws SyncError('not-found') when absent. */
  get(name: string, signal?: AbortSignal): Promise<Uint8Array>;
  /**
   * The object's first `bytes` bytes (a ranged GET; fewer when the object is shorter, the whole object
   * when the server ignores ranges). Optional: without it, headers are read from whole objects.
   */
  head?(name: string, bytes: number, signal?: AbortSignal): Promise<Uint8Array>;
  /** Every object whose name starts with `prefix` (all pages of the listing), in no particular order. */
  list(prefix: string, signal?: AbortSignal): Promise<SpaceObject[]>;
  /** Removes an object this device wrote (no error when already absent). */
  delete(name: string, signal?: AbortSignal): Promise<void>;
}

// The sync room's one error type and its codes (errors.ts), part of this interface.
import type { SyncError } from './errors.ts';

export { SyncError, type SyncErrorCode } from './errors.ts';

/** The space's secret: an age X25519 identity. Anyone holding it can read and write the space. */
export interface SpaceIdentity {
  /** `AGE-SECRET-KEY-1…`: `age -d -i` with it opens any object of the space. */
  identity: string;
}

/** Keys derived once from the identity (keys.ts `spaceKeys`). */
export interface SpaceKeys {
  identity: string;
  /** `age1…`, the recipient every object is encrypted to. */
  recipient: string;
  /** HMAC-SHA-256 key naming and authenticating objects (HKDF of the identity, info `rho-sessions sync v1 names`). */
  nameKey: CryptoKey;
}

/** What a pairing link carries: where the space is and its identity. Encrypted with the short code (age scrypt). */
export interface PairingPayload {
  v: 1;
  space: SpaceSettings;
  identity: string;
  /** The inviting device's name, shown on "Pair this device". */
  from: string;
}

/** One session copy on this device: the store's session or variant (worker), a file (a Node folder). */
export interface LocalCopy {
  /** The session's identity across devices: the header's session id. */
  key: string;
  /** This device's handle for the copy: the store id (`<id>` or `<id>~2`), or a file's path in its folder. */
  copy: string;
  /** Bytes of the copy now. */
  size: number;
  /** Where the copy lives relative to its folder (e.g. `--home-me-proj--/2026-…_<id>.jsonl`), kept so other folders can place it alike. */
  path?: string;
}

/**
 * What the engine needs from the device. Sessions are append-only: the engine only reads, appends
 * to a copy that still has the size it saw, creates new copies (a session it did not have, or a
 * version that diverged from the one here, kept beside as a variant), and moves copies to the trash.
 */
export interface LocalSide {
  /** Every session copy here (sessions and their variants). */
  list(signal?: AbortSignal): Promise<LocalCopy[]>;
  /** Bytes [start, end) of a copy. */
  read(copy: string, start: number, end: number): Promise<Uint8Array>;
  /** Appends to a copy that has exactly `expectedSize` bytes; throws (nothing written) when it changed. */
  append(copy: string, expectedSize: number, bytes: Uint8Array): Promise<void>;
  /**
   * Creates a copy of session `key` from these bytes: a new session, or, with `variantOf` (a copy
   * here that diverged from it), a variant kept beside that copy. Gives the new copy's handle.
   */
  create(key: string, bytes: Uint8Array, opts: { path?: string; variantOf?: string }): Promise<string>;
  /** Moves a copy to the trash (undo from there); a side that may not delete (an agent's folder) leaves it and says so by returning false. */
  trash(copy: string): Promise<boolean>;
  /** Copies the user moved to the trash here since the last `trashSent` (their key, handle and size then). */
  trashedHere?(): Promise<LocalCopy[]>;
  /** The space now holds trash records for these copies: forget them. */
  trashSent?(copies: string[]): Promise<void>;
}

/** What the engine keeps between rounds on this device (IndexedDB in the app, a file beside the settings in Node). */
export interface StateStore {
  load(): Promise<SyncState | null>;
  save(state: SyncState): Promise<void>;
}

/** The engine's own record (opaque to the caller; plain JSON). */
export interface SyncState {
  v: 1;
  /** This device's id in the space (random, 12 hex). */
  device: string;
  /** The next sequence number of this device's packs. */
  seq: number;
  /** The headers of the packs listed in the space at the last round, by name (the catalog). */
  packs: Record<string, PackHeader>;
  /** Objects refused (tampered, foreign), by name, with the message. */
  refused: Record<string, string>;
  /** Per copy: block hashes already computed, so a grown file is not hashed again. */
  blocks: Record<string, BlockCache>;
  /** Per copy: the version (size, prefix id) known to be in the space, so an unchanged copy costs nothing. */
  known: Record<string, { size: number; id: string }>;
  /** Trash records already applied here (`device/seq/index`). */
  trashed: string[];
  /** Per other device: the highest seq of its packs with content applied here. */
  cursors: Record<string, number>;
  /** The cursors as this device last wrote them to the space. */
  published: Record<string, number>;
  /** Own packs repeated by a consolidation, to delete once every device's cursor has passed `upTo`. */
  retiring: { names: string[]; upTo: number } | null;
}

/** A device of the space, as its own packs describe it. */
export interface DeviceInfo {
  id: string;
  name: string;
  /** ms since epoch of its latest pack. */
  lastSeen: number;
  /** Its objects and their bytes in the space. */
  objects: number;
  bytes: number;
  /** Sessions it has written segments of. */
  sessions: number;
  /** Whether it has left the space. */
  left: boolean;
  self: boolean;
}

/** What the engine reports while it works. */
export type SyncEvent =
  | { type: 'progress'; phase: 'list' | 'send' | 'receive' | 'apply' | 'consolidate'; done: number; total: number; bytes: number }
  | { type: 'applied'; key: string; copy: string; outcome: ApplyOutcome }
  | { type: 'synced'; at: number; report: RoundReport }
  | { type: 'error'; error: SyncError };

/** What applying another device's version did to a copy here (the import rules' outcomes). */
export type ApplyOutcome = 'added' | 'appended' | 'variant' | 'trashed' | 'kept';

/** The result of one round both ways. */
export interface RoundReport {
  /** Bytes of new segments this device put (before encryption) and objects it wrote. */
  sentBytes: number;
  sentObjects: number;
  /** Objects read and applied; refused ones (tampered, foreign) are in `refused`. */
  received: number;
  applied: { key: string; copy: string; outcome: ApplyOutcome }[];
  refused: { object: string; message: string }[];
  /** Objects this device removed from its own folder after consolidating. */
  removed: number;
  /** True when every copy here is in the space and every version in the space is here. */
  agreed: boolean;
  devices: DeviceInfo[];
  /** Bytes of all objects in the space. */
  spaceBytes: number;
}

/** "Check": what the space answered to a list, a put, a get and a delete of a probe object. */
export interface CheckResult {
  ok: boolean;
  /** Set when not ok: the first failing step's classified error. */
  error?: SyncError;
  /** Whether a space (its `rs1/space` object) exists there and opens with this key. */
  space: 'ours' | 'none' | 'foreign';
}

/** The engine over one space and one device. */
export interface SyncEngine {
  /** One round both ways: read other devices' new packs and apply them, send this device's changes, consolidate. */
  round(signal?: AbortSignal): Promise<RoundReport>;
  /** Lists, writes, reads and deletes a probe object; says which step failed and why. */
  check(signal?: AbortSignal): Promise<CheckResult>;
  /** Writes a "left" record for this device (other devices stop waiting for its cursors). */
  leave(signal?: AbortSignal): Promise<void>;
}

/** What building an engine takes. */
export interface EngineDeps {
  transport: Transport;
  keys: SpaceKeys;
  local: LocalSide;
  state: StateStore;
  /** This device's name as other devices list it (e.g. "Pixel 8", "laptop"). */
  deviceName: string;
  now?: () => number;
  /**
   * Encrypts a pack (default: age in this thread). A pool of workers (src/sync/seal.ts) seals packs
   * beside the thread that reads and uploads; the objects are the same age files.
   */
  seal?: SealFn;
  /** Consolidate once this device has more than this many small packs (default 64). */
  consolidateAfter?: number;
  onEvent?: (event: SyncEvent) => void;
}
