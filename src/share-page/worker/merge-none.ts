// The share page's build puts this in place of core/envelope/envelope-merge.ts: a page's envelope
// index is written whole into it, with no entry appended after it, so decode never merges one there.
// Were one found, decode refuses the index and the reader indexes the session from its bytes.
import type { StoredParts } from '../../core/envelope/envelope-layout.ts';
import { type RecordBlock, withoutAppended } from '../../core/envelope/envelope-records.ts';

export function mergeRecords(base: StoredParts, blocks: RecordBlock[]): StoredParts | null {
  return withoutAppended(base, blocks) ?? null;
}
