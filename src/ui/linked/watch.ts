// Live following of a linked folder while the app is visible: FileSystemObserver where Chromium has
// it (133+, https://github.com/whatwg/fs/blob/main/proposals/FileSystemObserver.md), polling every
// 2 s where it is missing or reports "unknown" (it lost track and asks to look again).

/** How often a folder is looked at when the browser cannot tell us about changes. */
export const POLL_MS = 2000;

interface ObserverRecord {
  type: 'appeared' | 'disappeared' | 'modified' | 'moved' | 'unknown' | 'errored';
}
interface FileSystemObserverLike {
  observe(handle: FileSystemHandle, options?: { recursive?: boolean }): Promise<void>;
  disconnect(): void;
}
type ObserverConstructor = new (callback: (records: ObserverRecord[]) => void) => FileSystemObserverLike;

/** Whether this browser can tell us when a folder changes (else we poll). */
export function hasFolderObserver(): boolean {
  return typeof (globalThis as { FileSystemObserver?: unknown }).FileSystemObserver === 'function';
}

/** Calls `onChange` when something in the folder may have changed; returns the function that stops watching. */
export function watchFolder(handle: FileSystemDirectoryHandle, onChange: () => void): () => void {
  let timer: ReturnType<typeof setInterval> | null = null;
  let observer: FileSystemObserverLike | null = null;
  const poll = () => {
    timer ??= setInterval(onChange, POLL_MS);
  };
  const Observer = (globalThis as { FileSystemObserver?: ObserverConstructor }).FileSystemObserver;
  if (Observer) {
    observer = new Observer((records) => {
      if (records.some((r) => r.type === 'unknown' || r.type === 'errored')) poll();
      onChange();
    });
    observer.observe(handle, { recursive: true }).catch(poll);
  } else poll();
  return () => {
    observer?.disconnect();
    if (timer) clearInterval(timer);
  };
}
