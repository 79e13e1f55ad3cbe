// One sync of the index at a time, shared by whoever asks meanwhile: a call during a sync waits for
// it, then checks again; everyone waiting hears its progress (a query made while an import's
// indexing runs shows that indexing's bar); a caller's abort (the next keystroke) ends its wait,
// never the sync: a rebuild that every keystroke restarted would never finish.
import { withLock } from '../../storage/locks.ts';
import { LOCK } from './import-batch.ts';

/** Progress of bringing the index to the files. */
export interface IndexProgress {
  done: number;
  total: number;
  label: string;
}

/**
 * Syncs shared between callers: `upToDate` says when none is needed, `release` is called before one
 * starts (the open segments are closed), `once` runs it under the index's lock.
 */
export function createSharedSync(upToDate: () => Promise<boolean>, release: () => void, once: (tell: (p: IndexProgress) => void) => Promise<void>) {
  let running: Promise<void> | null = null;
  const listeners = new Set<(p: IndexProgress) => void>();
  const tell = (p: IndexProgress) => {
    for (const l of listeners) l(p);
  };
  const syncShared = async (): Promise<void> => {
    for (;;) {
      while (running) await running.catch(() => undefined);
      if (await upToDate()) return;
      // Another call may have started a sync while this one looked.
      if (!running) break;
    }
    // Something changed: the open segments are closed first. Another tab's sync may hold the lock
    // while it waits to remove one of them (its compaction); this one would otherwise wait for it.
    release();
    running = withLock(LOCK, () => once(tell));
    try {
      await running;
    } finally {
      running = null;
    }
  };
  const sync = async (progress?: (p: IndexProgress) => void, signal?: AbortSignal): Promise<void> => {
    signal?.throwIfAborted();
    if (progress) listeners.add(progress);
    let stop: (() => void) | undefined;
    try {
      const aborted = new Promise<never>((_, reject) => {
        stop = () => reject(signal?.reason ?? new DOMException('Aborted', 'AbortError'));
        signal?.addEventListener('abort', stop, { once: true });
      });
      await Promise.race([syncShared(), aborted]);
    } finally {
      if (stop) signal?.removeEventListener('abort', stop);
      if (progress) listeners.delete(progress);
    }
  };
  return { sync, running: () => running !== null };
}
