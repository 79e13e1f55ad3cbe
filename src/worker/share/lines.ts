// A stored session's records as (line number, bytes), read in chunks: the whole file or the lines
// of one branch (the header, omp's title slot, and the branch's entries).
import { walkBranch } from '../../core/index.ts';
import { CHUNK_SIZE, concatBytes } from '../../storage/chunks.ts';
import type { SessionStore, SessionSummary } from '../../storage/types.ts';
import { ApiFailure } from '../protocol.ts';

/** What part of a session a share covers. */
export type Scope = 'session' | 'branch';

/** One physical line (no newline), with its 1-based number. */
export interface RawLine {
  line: number;
  bytes: Uint8Array;
}

/** The line numbers of the branch ending at `leafId` (the session's leaf when absent), header and title slot included. */
export async function branchLines(store: SessionStore, id: string, leafId?: string): Promise<Set<number>> {
  const scan = await store.scan(id);
  if (leafId !== undefined && !scan.tree.indexById.has(leafId)) throw new ApiFailure('not-found', `No entry ${leafId} in this session.`);
  const lines = new Set<number>();
  if (scan.tree.headerLine) lines.add(scan.tree.headerLine);
  if (scan.tree.titleSlot) lines.add(1);
  for (const e of walkBranch(scan.tree, leafId).entries) lines.add(scan.tree.entryLines[scan.tree.indexById.get(e.id as string) as number]);
  return lines;
}

/** Non-blank lines of a stored session, in file order; only the `wanted` ones when given. */
export async function* storedRawLines(store: SessionStore, s: SessionSummary, wanted?: ReadonlySet<number>, signal?: AbortSignal): AsyncGenerator<RawLine> {
  let line = 1;
  let carry: Uint8Array[] = [];
  for (let at = 0; at < s.size; at += CHUNK_SIZE) {
    signal?.throwIfAborted();
    const chunk = await store.readRange(s.id, at, Math.min(at + CHUNK_SIZE, s.size));
    let pos = 0;
    for (;;) {
      const nl = chunk.indexOf(10, pos);
      const keep = !wanted || wanted.has(line);
      if (nl < 0) {
        if (keep) carry.push(chunk.subarray(pos));
        break;
      }
      if (keep) {
        carry.push(chunk.subarray(pos, nl));
        const bytes = carry.length === 1 ? carry[0] : concatBytes(carry);
        if (bytes.some((b) => b !== 32 && b !== 9 && b !== 13)) yield { line, bytes };
      }
      carry = [];
      line++;
      pos = nl + 1;
    }
  }
  if (carry.length) {
    const bytes = concatBytes(carry);
    if (bytes.length) yield { line, bytes };
  }
}
