// Writes the library makes to a stored session: rename (session_info + title_change entries, and
// omp's title slot rewritten when the file has one) and labels. Always appends through the store,
// which first makes the file end in "\n"; the slot rewrite swaps in a complete new file.
import { append, CoreError, openSession, type EntryBody, type ParsedSession } from '../../core/index.ts';
import { blobChunks, concatBytes } from '../../storage/chunks.ts';
import type { SessionStore, SessionSummary } from '../../storage/types.ts';
import { indexAppended } from '../import/envelopes.ts';
import { ApiFailure } from '../protocol.ts';

const encoder = new TextEncoder();
/** omp's title slot is exactly this many bytes, "\n" included (§1.3). */
export const TITLE_SLOT_BYTES = 256;

/** Clock and ids for the entries we append. */
export interface EditDeps {
  now(): Date;
  randomId(): string;
}

/** Refuses writes to another agent's file (Claude Code, Codex): pi's lines must never go into it. */
export async function assertWritable(store: SessionStore, id: string): Promise<void> {
  const s = await store.get(id);
  if (s?.piSize === undefined) return;
  const who = s.agent === 'codex' ? 'Codex' : 'Claude Code';
  throw new ApiFailure('unsupported', `Written by ${who}: read-only here. Export it as a pi session to continue it in pi.`, s.path);
}

/** Appends entries after the session's leaf; returns the new summary. */
export async function appendEntries(store: SessionStore, id: string, bodies: EntryBody[], deps: EditDeps): Promise<SessionSummary> {
  await assertWritable(store, id);
  const scan = await store.scan(id);
  let session = openSession(scan.tree as unknown as ParsedSession, { now: () => deps.now(), randomId: () => deps.randomId() });
  const parts: Uint8Array[] = [];
  try {
    for (const body of bodies) {
      const r = append(session, body);
      session = r.session;
      parts.push(r.bytes);
    }
  } catch (e) {
    if (e instanceof CoreError) throw new ApiFailure(e.code === 'append-v1' ? 'unsupported' : 'invalid-input', e.message);
    throw e;
  }
  const bytes = concatBytes(parts);
  const size = (await store.get(id))?.size ?? 0;
  const summary = await store.appendLines(id, bytes);
  // The stored envelope index grows by the new lines (a torn last line made appendLines add a "\n": then it is rebuilt on open).
  if (summary.size === size + bytes.length) await indexAppended(store, id, size, bytes);
  return summary;
}

/**
 * omp's title slot line for a title (§1.3): keys `type, v, title, source, updatedAt, pad`, the
 * title cut on code points so the line with its "\n" is exactly 256 UTF-8 bytes.
 */
export function serializeTitleSlot(title: string, source: 'auto' | 'user', updatedAt: string): Uint8Array {
  const line = (t: string, pad: string) => JSON.stringify({ type: 'title', v: 1, title: t, source, updatedAt, pad });
  const points = Array.from(title);
  let lo = 0;
  let hi = points.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (encoder.encode(line(points.slice(0, mid).join(''), '')).length <= TITLE_SLOT_BYTES - 1) lo = mid;
    else hi = mid - 1;
  }
  const kept = points.slice(0, lo).join('');
  const bare = encoder.encode(line(kept, '')).length;
  return encoder.encode(line(kept, ' '.repeat(TITLE_SLOT_BYTES - 1 - bare)) + '\n');
}

/** Renames a session: appends session_info (pi) and title_change (omp), then updates omp's slot if any. */
export async function renameStored(store: SessionStore, id: string, title: string, deps: EditDeps): Promise<SessionSummary> {
  await assertWritable(store, id);
  const clean = title.trim();
  const before = await store.scan(id);
  const previousTitle = before.digest.title ?? undefined;
  const bodies: EntryBody[] = [
    { type: 'session_info', name: clean },
    { type: 'title_change', title: clean, source: 'user', ...(previousTitle ? { previousTitle } : {}) },
  ];
  let summary = await appendEntries(store, id, bodies, deps);
  if (before.tree.titleSlot) summary = await rewriteTitleSlot(store, id, clean, deps.now().toISOString());
  return summary;
}

// A new file: the new slot, then everything after the old first line; swapped in when complete.
async function rewriteTitleSlot(store: SessionStore, id: string, title: string, updatedAt: string): Promise<SessionSummary> {
  const file = await store.readFile(id);
  const head = new Uint8Array(await file.slice(0, 64 * 1024).arrayBuffer());
  const firstEnd = head.indexOf(10);
  if (firstEnd < 0) return (await store.get(id))!;
  const slot = serializeTitleSlot(title, 'user', updatedAt);
  async function* chunks() {
    yield slot;
    yield* blobChunks(file, firstEnd + 1);
  }
  return store.replace(id, chunks());
}
