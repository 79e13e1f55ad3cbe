// What one round carries between its steps: the space, the keys, this device's state, the packs
// already opened this round, the report being built, and the event sink.
import { openPack } from './envelope.ts';
import { decodePack, type Pack } from './pack.ts';
import { SyncError, type EngineDeps, type RoundReport, type SyncEvent, type SyncState } from './types.ts';

export interface Round {
  deps: EngineDeps;
  state: SyncState;
  now: () => number;
  report: RoundReport;
  emit: (event: SyncEvent) => void;
  signal?: AbortSignal;
  /** Packs opened this round, by name. */
  opened: Map<string, Pack>;
}

export function emptyReport(): RoundReport {
  return { sentBytes: 0, sentObjects: 0, received: 0, applied: [], refused: [], removed: 0, agreed: false, devices: [], spaceBytes: 0 };
}

/** Gets, opens and decodes a pack (once per round); SyncError('tampered') when it is not one of ours. */
export async function readPack(r: Round, name: string, listedSize?: number): Promise<Pack> {
  const cached = r.opened.get(name);
  if (cached) return cached;
  const bytes = await r.deps.transport.get(name, r.signal);
  if (listedSize !== undefined && bytes.length !== listedSize)
    throw new SyncError('network', `${r.deps.transport.where}: GET ${name} gave ${bytes.length} of its ${listedSize} bytes (cut off); tried again next round`, {
      object: name,
    });
  const plain = await openPack(r.deps.keys, name, bytes);
  let pack: Pack;
  try {
    pack = decodePack(plain);
  } catch (error) {
    throw new SyncError('tampered', `${name}: ${(error as Error).message}; nothing was applied`, { object: name, cause: error });
  }
  r.opened.set(name, pack);
  if (r.opened.size > 64) r.opened.delete(r.opened.keys().next().value!);
  return pack;
}
