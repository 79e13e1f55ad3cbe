// What one round carries between its steps: the space, the keys, this device's state, the packs
// already opened this round, the report being built, and the event sink.
import { openPack, openStart } from './envelope.ts';
import { decodePack, type Pack, type PackHeader, packHeaderOf } from './pack.ts';
import { SyncError, type EngineDeps, type RoundReport, type SyncEvent, type SyncState } from './types.ts';

export interface Round {
  deps: EngineDeps;
  state: SyncState;
  now: () => number;
  report: RoundReport;
  emit: (event: SyncEvent) => void;
  signal?: AbortSignal;
  /** Packs opened this round, by name, oldest first, with their sizes. */
  opened: Map<string, { pack: Pack; size: number }>;
  /** Packs refused this round: asked for again, they fail the same way without another GET. */
  failed: Map<string, SyncError>;
  /** Set once a ranged GET failed this round: the rest of the round reads headers from whole packs. */
  noRanges?: boolean;
}

/** The bytes of opened packs a round keeps at most (a first sync of a large space must fit a phone). */
export const OPENED_BYTES = 64 * 1024 * 1024;
/** Packs at least this large have their header read from their first bytes (`readHeader`). */
export const HEAD_FROM = 1024 * 1024;
const FIRST_HEAD = 72 * 1024;

export function emptyReport(): RoundReport {
  return { sentBytes: 0, sentObjects: 0, received: 0, applied: [], refused: [], removed: 0, agreed: false, devices: [], spaceBytes: 0 };
}

function tampered(name: string, error: unknown): SyncError {
  return new SyncError('tampered', `${name}: ${(error as Error).message}; nothing was applied`, { object: name, cause: error });
}

function keep(r: Round, name: string, pack: Pack, size: number): void {
  r.opened.set(name, { pack, size });
  let total = 0;
  for (const o of r.opened.values()) total += o.size;
  for (const [old, o] of r.opened) {
    if (total <= OPENED_BYTES || old === name) break;
    r.opened.delete(old);
    total -= o.size;
  }
}

/** Gets, opens and decodes a pack (once per round while it is kept); SyncError('tampered') when it is not one of ours. */
export async function readPack(r: Round, name: string, listedSize?: number): Promise<Pack> {
  const cached = r.opened.get(name);
  if (cached) {
    r.opened.delete(name);
    r.opened.set(name, cached);
    return cached.pack;
  }
  const failed = r.failed.get(name);
  if (failed) throw failed;
  const bytes = await r.deps.transport.get(name, r.signal);
  return openWhole(r, name, bytes, listedSize);
}

async function openWhole(r: Round, name: string, bytes: Uint8Array, listedSize?: number): Promise<Pack> {
  if (listedSize !== undefined && bytes.length !== listedSize)
    throw new SyncError('network', `${r.deps.transport.where}: GET ${name} gave ${bytes.length} of its ${listedSize} bytes (cut off); tried again next round`, {
      object: name,
    });
  let pack: Pack;
  try {
    const plain = await openPack(r.deps.keys, name, bytes);
    try {
      pack = decodePack(plain);
    } catch (error) {
      throw tampered(name, error);
    }
  } catch (error) {
    if (error instanceof SyncError && error.code === 'tampered') r.failed.set(name, error);
    throw error;
  }
  keep(r, name, pack, bytes.length);
  return pack;
}

/**
 * A pack's header. A large pack's is read from its first bytes (a ranged GET, growing until the
 * header is whole), so learning what the space holds costs kilobytes, not the space's size; its
 * segments are read whole, and checked against the pack's name, when they are applied. A small
 * pack, or one refused before, is read whole at once.
 */
export async function readHeader(r: Round, name: string, listedSize: number): Promise<PackHeader> {
  const head = r.deps.transport.head;
  const whole = async () => (await readPack(r, name, listedSize)).header;
  if (!head || r.noRanges || listedSize < HEAD_FROM || name in r.state.refused) return whole();
  for (let want = FIRST_HEAD; ; want *= 4) {
    if (want >= listedSize) return whole();
    let start: Uint8Array;
    try {
      start = await head.call(r.deps.transport, name, want, r.signal);
    } catch (error) {
      // a server that mishandles ranges (some cut the answer off) is read whole
      if (!(error instanceof SyncError) || !['network', 'server', 'cors-blocked'].includes(error.code)) throw error;
      r.noRanges = true;
      return whole();
    }
    if (start.length >= listedSize) return (await openWhole(r, name, start, listedSize)).header;
    const plain = await openStart(r.deps.keys, name, start);
    let found: ReturnType<typeof packHeaderOf>;
    try {
      found = packHeaderOf(plain);
    } catch (error) {
      throw tampered(name, error);
    }
    if ('header' in found) return found.header;
    while (want * 4 < found.need) want *= 4;
  }
}
