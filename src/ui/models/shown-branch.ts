// The branch the reader last showed for each session, so "Export active branch" in the library
// exports the branch the user picked in the navigator, not the file's default leaf. Kept in
// localStorage (small: ids only, the most recent sessions), so it survives a reload.

const KEY = 'rho.shownBranch';
const KEEP = 200;

function read(): Record<string, string> {
  try {
    const value = JSON.parse(localStorage.getItem(KEY) ?? '{}');
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/** Choices not written yet (sessionId → leaf, null: the file's own): the reader opens without touching storage. */
const pending = new Map<string, string | null>();
let flushPosted = false;

function flush(): void {
  flushPosted = false;
  if (pending.size === 0) return;
  const all = read();
  for (const [sessionId, leafId] of pending) {
    delete all[sessionId];
    if (leafId) all[sessionId] = leafId;
  }
  pending.clear();
  const ids = Object.keys(all);
  for (const old of ids.slice(0, Math.max(0, ids.length - KEEP))) delete all[old];
  try {
    localStorage.setItem(KEY, JSON.stringify(all));
  } catch {
    // Storage full or disabled: the export then takes the file's default branch, as before.
  }
}

/**
 * Remembers the branch (its leaf) on screen for a session; null: the file's own leaf. Written
 * when the page is idle (the first localStorage access costs ~10 ms on a phone, in the task that
 * puts the session on screen otherwise), or at once when the page is hidden.
 */
export function rememberShownBranch(sessionId: string, leafId: string | null): void {
  pending.delete(sessionId);
  pending.set(sessionId, leafId);
  if (flushPosted) return;
  flushPosted = true;
  if (typeof requestIdleCallback === 'function') requestIdleCallback(flush, { timeout: 2000 });
  else setTimeout(flush, 200);
}

if (typeof addEventListener === 'function') addEventListener('pagehide', flush);

/** The leaf of the branch last shown for a session, if the user picked one. */
export function shownBranch(sessionId: string): string | undefined {
  if (pending.has(sessionId)) return pending.get(sessionId) ?? undefined;
  return read()[sessionId];
}
