// What the sync room tells the page: plain data, never a credential or the space key.
import type { ApplyOutcome, DeviceInfo, SyncError, SyncErrorCode } from '../../sync/index.ts';
import type { TrashedBySync } from './local-store.ts';
import type { PublicSpace } from './settings.ts';

/** A sync failure as the page shows it: the code picks the fix; the message names the provider's answer. */
export interface SyncProblem {
  code: SyncErrorCode;
  message: string;
  status?: number;
  provider?: string;
  object?: string;
}

export interface SyncStatus {
  /** Increases with every change (the page's long poll waits for a higher one). */
  version: number;
  configured: boolean;
  space?: PublicSpace;
  /** "S3 bucket sessions at https://…" (no credentials). */
  where?: string;
  deviceName?: string;
  /** This device's id in the space. */
  device?: string;
  state: 'off' | 'idle' | 'syncing' | 'error';
  /** Whether rounds run by themselves now (visible, online, set up). */
  live: boolean;
  progress: { phase: string; done: number; total: number; bytes: number } | null;
  /** ms since epoch of the last round that finished. */
  lastSync: number | null;
  error: SyncProblem | null;
  devices: DeviceInfo[];
  spaceBytes: number;
  /** Whether every copy here is in the space and every version there is here (after the last round). */
  agreed: boolean;
  /** The last round's changes here, and refused objects. */
  applied: { key: string; copy: string; outcome: ApplyOutcome }[];
  refused: { object: string; message: string }[];
  /** Sessions another device deleted, moved to the trash here (undo from the sync screen). */
  trashed: TrashedBySync[];
  /** Requests made to the space since the worker started (idle cost). */
  requests: number;
  /** Rounds finished since the worker started. */
  rounds: number;
  /** The round (its number in `rounds`) whose changes `applied` lists; 0: none yet. */
  appliedRound: number;
  /** The wait before the next poll while nothing changes (docs/sync.md: 1 s after a change, growing to 2.5 s). */
  nextPollMs: number;
}

export function problemOf(e: SyncError): SyncProblem {
  const p: SyncProblem = { code: e.code, message: e.message };
  if (e.status !== undefined) p.status = e.status;
  if (e.provider) p.provider = e.provider;
  if (e.object) p.object = e.object;
  return p;
}

export function initialStatus(): SyncStatus {
  return {
    version: 0,
    configured: false,
    state: 'off',
    live: false,
    progress: null,
    lastSync: null,
    error: null,
    devices: [],
    spaceBytes: 0,
    agreed: false,
    applied: [],
    refused: [],
    trashed: [],
    requests: 0,
    rounds: 0,
    appliedRound: 0,
    nextPollMs: 0,
  };
}
