// The library index: one small record per session, kept in one JSON file so listing 2,000
// sessions is one read and one JSON.parse. It is only a cache of what the files say: a missing,
// corrupt or stale index is rebuilt from the files (store.ts), so losing it loses nothing.
import { isAgent, isUsageDigest } from '../core/index.ts';
import type { SessionSummary } from './types.ts';

/** Format tag and version of index.json; another value means "rebuild". */
export const INDEX_FORMAT = 'rho-sessions-index';
// 2: records say which agent wrote the file (`agent`).
// 3: records carry `usage` (older records lack it, so every file is read again).
// 4: Claude Code and Codex files are sessions (`agent` names them, `piSize` sizes their pi conversion);
//    version 3 listed them as not sessions, so every file is read again.
// 5: records carry the session's `date` (core createSessionDate), so every file is read again.
export const INDEX_VERSION = 5;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The bytes of index.json for these summaries. `log`: the name of the record log that continues
 * this file (index-log.ts); a log that names another is not this file's and is ignored.
 */
export function encodeIndex(sessions: Iterable<SessionSummary>, log?: string): Uint8Array {
  return encoder.encode(JSON.stringify({ format: INDEX_FORMAT, version: INDEX_VERSION, ...(log ? { log } : {}), sessions: [...sessions] }));
}

/** index.json as read: its summaries and the name of the log that continues it (null: none may). */
export interface IndexFile {
  sessions: SessionSummary[];
  log: string | null;
}

/** index.json's bytes read, or null when they are not a usable index (then rebuild). */
export function decodeIndexFile(bytes: Uint8Array): IndexFile | null {
  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(bytes));
  } catch {
    return null;
  }
  const v = value as { format?: unknown; version?: unknown; sessions?: unknown; log?: unknown };
  if (!v || v.format !== INDEX_FORMAT || v.version !== INDEX_VERSION || !Array.isArray(v.sessions)) return null;
  if (!v.sessions.every(isSummary)) return null;
  return { sessions: v.sessions as SessionSummary[], log: typeof v.log === 'string' ? v.log : null };
}

/** The summaries in index.json bytes, or null when the bytes are not a usable index (then rebuild). */
export function decodeIndex(bytes: Uint8Array): SessionSummary[] | null {
  return decodeIndexFile(bytes)?.sessions ?? null;
}

const str = (x: unknown) => typeof x === 'string';
const num = (x: unknown) => typeof x === 'number' && Number.isFinite(x);
const strOrNull = (x: unknown) => x === null || typeof x === 'string';

/** Whether a value has the shape of an index record (hand-checked: storage does not use zod). */
export function isSummary(x: unknown): x is SessionSummary {
  const s = x as Record<string, unknown>;
  if (!s || typeof s !== 'object') return false;
  const t = s.totals as Record<string, unknown> | undefined;
  return (
    str(s.id) &&
    str(s.path) &&
    strOrNull(s.title) &&
    strOrNull(s.firstMessage) &&
    str(s.cwd) &&
    str(s.created) &&
    num(s.modified) &&
    num(s.date) &&
    num(s.size) &&
    num(s.entryCount) &&
    num(s.branchCount) &&
    strOrNull(s.model) &&
    !!t &&
    typeof t === 'object' &&
    num(t.tokens) &&
    num(t.output) &&
    num(t.cost) &&
    isUsageDigest(s.usage) &&
    num(s.problems) &&
    (s.variantOf === undefined || str(s.variantOf)) &&
    (s.forkOf === undefined || str(s.forkOf)) &&
    (s.agent === undefined || isAgent(s.agent)) &&
    (s.piSize === undefined || num(s.piSize))
  );
}

/** Most recently written first; ties by creation time, then id, so the order is stable. */
export function sortSummaries(list: SessionSummary[]): SessionSummary[] {
  return list.sort(
    (a, b) => b.modified - a.modified || (a.created < b.created ? 1 : a.created > b.created ? -1 : 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}
