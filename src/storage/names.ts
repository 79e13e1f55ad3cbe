// Names in the store: session files, variants, trash tokens, and the names exports and bundles use.
import { piFileName as corePiFileName, piSessionDir } from '../core/write/resume.ts';

/** The directory sessions live in (the module description's `dir`). */
export const SESSIONS_DIR = 'sessions';
/** omp image blobs, one file per sha256. */
export const BLOBS_DIR = 'blobs';
/** Deleted sessions, kept until the undo window has passed. */
export const TRASH_DIR = 'trash';
/** The rebuildable index of summaries. */
export const INDEX_PATH = 'index.json';
/** The index's records written since index.json, one line each (index-log.ts). */
export const INDEX_LOG_PATH = 'index.log';

/** The file of a session in the store: `sessions/<id>.jsonl`, the id made safe for a file name. */
export function sessionPath(id: string): string {
  return `${SESSIONS_DIR}/${encodeURIComponent(id)}.jsonl`;
}

/** The store id a session file name stands for, or null for a name the store did not write. */
export function idFromFileName(name: string): string | null {
  if (!name.endsWith('.jsonl')) return null;
  try {
    return decodeURIComponent(name.slice(0, -'.jsonl'.length)) || null;
  } catch {
    return null;
  }
}

/** The header id a store id belongs to: a variant `<id>~<n>` shares its session's header id. */
export function baseId(id: string): string {
  const m = /^(.*)~\d+$/.exec(id);
  return m ? m[1] : id;
}

/** The store id of the n-th variant of a session (n ≥ 2). */
export function variantId(id: string, n: number): string {
  return `${id}~${n}`;
}

/**
 * pi's file name for a session (§1.5, core `piFileName`), made safe to write on any file system:
 * characters no file system takes in a name become `-` (pi's own ids and timestamps have none).
 */
export function piFileName(headerId: string, created: string): string {
  const unsafe = /[\\/:*?"<>|\u0000-\u001f]/g;
  const safeId = headerId.replace(unsafe, '-');
  return created ? corePiFileName(safeId, created.replace(/[:.]/g, '-').replace(unsafe, '-')) : `${safeId}.jsonl`;
}

/** pi's per-project folder for a cwd (§7.1, core `piSessionDir`): `/home/u/proj` → `--home-u-proj--`. */
export function piProjectDir(cwd: string): string {
  return cwd ? piSessionDir(cwd) : '--unknown--';
}

/** The Web Lock one writer of a session holds (variants share their base session's). */
export const writeLockName = (id: string) => `rho-sessions:write:${baseId(id)}`;
