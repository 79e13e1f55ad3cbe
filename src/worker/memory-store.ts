import type { SessionStore } from '../storage/types.ts';

/** Placeholder until the OPFS store lands: nothing is kept. */
export function createPlaceholderStore(): SessionStore {
  return {
    async readBytes(id) { throw new Error(`No session ${id}`); },
    async readBlob() { return null; },
  };
}
