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

/** Remembers the branch (its leaf) on screen for a session; null: the file's own leaf. */
export function rememberShownBranch(sessionId: string, leafId: string | null): void {
  const all = read();
  delete all[sessionId];
  if (leafId) all[sessionId] = leafId;
  const ids = Object.keys(all);
  for (const old of ids.slice(0, Math.max(0, ids.length - KEEP))) delete all[old];
  try {
    localStorage.setItem(KEY, JSON.stringify(all));
  } catch {
    // Storage full or disabled: the export then takes the file's default branch, as before.
  }
}

/** The leaf of the branch last shown for a session, if the user picked one. */
export function shownBranch(sessionId: string): string | undefined {
  return read()[sessionId];
}
