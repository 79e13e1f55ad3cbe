// The worker API over a memory store with a fixed clock and ids, and small file helpers, for the library API tests.
import { createApi } from '../../../src/worker/api.ts';
import { memoryStore } from '../../storage/helpers.ts';

/** The API over a fresh memory store (fixed clock, counting ids). */
export function setup() {
  const { disk, store } = memoryStore({ now: () => 1_700_000_000_000 });
  let n = 0;
  const api = createApi({ store, now: () => new Date('2026-03-04T05:06:07.000Z'), randomId: () => (++n).toString(16).padStart(8, '0') });
  return { api, store, disk };
}

/** A File named `name` holding `content`. */
export const file = (name: string, content: string | Uint8Array) => new File([content as BlobPart], name);
/** A blob's bytes as text. */
export const text = async (blob: Blob) => new TextDecoder().decode(new Uint8Array(await blob.arrayBuffer()));
