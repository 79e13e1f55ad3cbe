// Where a session's stored envelope index lives (core/envelope-file.ts is its format): one file
// per session in its own directory, so the sessions directory the library reconciles holds
// session files only. The index is a cache: missing, stale or damaged, it is made again from the
// session; losing it loses nothing.
import { once } from './chunks.ts';
import { sessionPath } from './names.ts';
import type { Disk } from './types.ts';

/** The directory of stored envelope indexes. */
export const ENVELOPES_DIR = 'envelopes';

/** The stored envelope index of a session: `envelopes/<id>.idx`. */
export function envelopePath(id: string): string {
  return `${ENVELOPES_DIR}/${sessionPath(id)
    .split('/')
    .pop()!
    .replace(/\.jsonl$/, '')}.idx`;
}

/** The stored index bytes of session `id`, or null when there are none. */
export async function readEnvelopeFile(disk: Disk, id: string): Promise<Uint8Array | null> {
  const path = envelopePath(id);
  if ((await disk.size(path)) === null) return null;
  try {
    return await disk.read(path);
  } catch {
    return null;
  }
}

/** Stores the index bytes of session `id` (swapped in whole, so a reader never sees half of one). */
export async function writeEnvelopeFile(disk: Disk, id: string, bytes: Uint8Array): Promise<void> {
  await disk.writeNew(envelopePath(id), once(bytes));
}
