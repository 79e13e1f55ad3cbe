// The devices of a space, as their packs describe them: name, last seen, left, what each holds.
import { parsePackName } from './envelope.ts';
import type { PackHeader } from './pack.ts';
import type { DeviceInfo, SpaceObject, SyncState } from './types.ts';

/** The latest header of each device in the catalog. */
export function latestHeaders(state: SyncState): Map<string, PackHeader> {
  const latest = new Map<string, PackHeader>();
  for (const h of Object.values(state.packs)) {
    const seen = latest.get(h.device);
    if (!seen || seen.seq < h.seq) latest.set(h.device, h);
  }
  return latest;
}

export function devicesOf(state: SyncState, listed: SpaceObject[]): DeviceInfo[] {
  const latest = latestHeaders(state);
  const sessions = new Map<string, Set<string>>();
  for (const h of Object.values(state.packs)) {
    const set = sessions.get(h.device) ?? new Set();
    for (const s of h.segments) set.add(s.key);
    sessions.set(h.device, set);
  }
  const out: DeviceInfo[] = [];
  for (const [id, h] of latest) {
    let objects = 0;
    let bytes = 0;
    for (const o of listed)
      if (parsePackName(o.name)?.device === id) {
        objects++;
        bytes += o.size;
      }
    out.push({ id, name: h.name, lastSeen: h.at, objects, bytes, sessions: sessions.get(id)?.size ?? 0, left: Boolean(h.left), self: id === state.device });
  }
  return out.sort((a, b) => b.lastSeen - a.lastSeen);
}
