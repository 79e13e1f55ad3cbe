// How queries read the index's segments (written once, never changed): through a reader kept open
// per segment (a read-only sync access handle on OPFS: a read takes microseconds, where a slice of
// the file's Blob snapshot cost this thread about 0.5 ms, several per session a keystroke shows:
// half the worker's CPU in the bench's keystrokes). An open reader keeps the file from being removed
// (here, or by another tab's compaction), so readers are closed once queries pause, when a sync finds
// their segment no longer used, and before a sync that takes the index's lock (library-index.ts).
// A disk without readers, or a reader that cannot be opened, is read through the Blob snapshot.
import type { Disk, FileReaderAt } from '../../storage/types.ts';

/** The folder of the search index. */
export const SEARCH_DIR = 'search';

/** How long readers stay open after the last read: through a pause in the typing, not much longer (another tab removing a segment retries for about 10 s). */
export const READER_IDLE_MS = 3000;

/** The segments' files as queries read them. */
export interface SegmentFiles {
  /** Bytes [from, to) of a segment (fewer when the file is shorter); throws when it cannot be read. */
  read(seg: string, from: number, to: number): Promise<Uint8Array>;
  /** Closes and forgets what is open of the segments not in `live` (all of them without it). */
  release(live?: ReadonlySet<string>): void;
}

type Source = { reader: FileReaderAt } | { blob: Blob };

/** Reads segments of `disk`, closing readers `idleMs` after the last read. */
export function createSegmentFiles(disk: Disk, idleMs = READER_IDLE_MS): SegmentFiles {
  const open = new Map<string, Promise<Source>>();
  let timer: ReturnType<typeof setTimeout> | null = null;

  const sourceOf = (seg: string): Promise<Source> => {
    let s = open.get(seg);
    if (!s) {
      const path = `${SEARCH_DIR}/${seg}`;
      const blob = async (): Promise<Source> => ({ blob: await disk.blob(path) });
      s = disk.openReader ? disk.openReader(path).then((reader) => ({ reader }), blob) : blob();
      open.set(seg, s);
      // A segment that could not be opened is tried again by the next read.
      s.catch(() => open.delete(seg));
    }
    return s;
  };

  const close = (seg: string) => {
    const s = open.get(seg);
    open.delete(seg);
    void s?.then((x) => ('reader' in x ? x.reader.close() : undefined)).catch(() => undefined);
  };

  const files: SegmentFiles = {
    async read(seg, from, to) {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = null;
        files.release();
      }, idleMs);
      const p = sourceOf(seg);
      const s = await p;
      try {
        return 'reader' in s ? s.reader.read(from, to) : new Uint8Array(await s.blob.slice(from, to).arrayBuffer());
      } catch (e) {
        if (open.get(seg) === p) close(seg);
        // A reader closed meanwhile (a release while this read waited to run): once more through a new one.
        if (!('reader' in s)) throw e;
        const again = await sourceOf(seg);
        return 'reader' in again ? again.reader.read(from, to) : new Uint8Array(await again.blob.slice(from, to).arrayBuffer());
      }
    },
    release(live) {
      for (const seg of [...open.keys()]) if (!live?.has(seg)) close(seg);
      if (!live && timer) {
        clearTimeout(timer);
        timer = null;
      }
    },
  };
  return files;
}
