import type { SessionStore } from '../storage/types.ts';

/** Placeholder until the OPFS store lands: nothing is kept. */
export function createPlaceholderStore(): SessionStore {
  return {
    async readBytes(id) { const r = await fetch(`/${decodeURIComponent(id)}`); if (!r.ok) throw new Error(`No session ${id}`); return new Uint8Array(await r.arrayBuffer()); },
    async readBlob() { return null; },
  };
}
