// omp keeps a session's images outside it, as `blobs/<sha256>` beside its sessions (~/.omp/agent):
// a sync brings in the ones the sessions it read refer to, each stored only if its bytes match its name.
import type { FolderDisk, FolderFile } from '../../storage/folder.ts';
import type { SessionStore } from '../../storage/types.ts';
import { sha256Hex } from '../import/api.ts';
import { blobPathHash } from '../import/unpack.ts';

/** Stores the folder's image blobs named in `refs` that the store lacks; returns the paths whose bytes did not match their name. */
export async function syncBlobs(folder: FolderDisk, files: FolderFile[], refs: Set<string>, store: SessionStore): Promise<string[]> {
  const bad: string[] = [];
  if (!refs.size) return bad;
  for (const f of files) {
    const hash = blobPathHash(f.path);
    if (!hash || !refs.has(hash) || (await store.hasBlob(hash))) continue;
    const bytes = new Uint8Array(await (await folder.blob(f.path)).arrayBuffer());
    if ((await sha256Hex(bytes)) !== hash) {
      bad.push(f.path);
      continue;
    }
    await store.writeBlob(hash, bytes);
  }
  return bad;
}
