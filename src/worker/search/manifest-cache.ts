// The manifest as this worker's last sync left it, with the file's size and time then: every
// keystroke syncs, and a manifest that has not changed since is followed without reading and parsing
// it again. A sync ends holding the index's lock, so a later write (another tab's) is stamped later
// than the time the sync ended; the copy is kept only when that time is past the file's own, so any
// later write changes the time it shows.
import type { Disk } from '../../storage/types.ts';
import { MANIFEST, type Manifest, readManifest } from './segments.ts';

/** Reads the manifest, unless the copy the last sync left is still the file on disk. */
export function createManifestCache(disk: Disk) {
  let known: { size: number; modified: number; manifest: Manifest } | null = null;
  return {
    /** The manifest on disk (the caller may change it: the copy is dropped until `settled`). */
    async read(): Promise<Manifest | null> {
      const k = known;
      known = null;
      if (k) {
        const at = await disk.stat(MANIFEST);
        if (at && at.size === k.size && at.modified === k.modified) return k.manifest;
      }
      return readManifest(disk);
    },
    /** The copy the last sync left, when the file is still that one (else null); the copy stays. */
    async current(): Promise<Manifest | null> {
      const k = known;
      if (!k) return null;
      const at = await disk.stat(MANIFEST);
      return at && at.size === k.size && at.modified === k.modified && known === k ? k.manifest : null;
    },
    /** A sync ended (still under the lock) with `manifest` as what is on disk. */
    async settled(manifest: Manifest): Promise<void> {
      const at = await disk.stat(MANIFEST);
      if (at && Date.now() > at.modified) known = { size: at.size, modified: at.modified, manifest };
    },
  };
}
