// The share page's build puts this in place of core/envelope/envelope-merge.ts: a page's envelope
// index is written whole into it, with no block appended after it, so decode never merges one there.
// Were one found, decode refuses the index and the reader indexes the session from its bytes.
import type { StoredParts } from '../../core/envelope/envelope-layout.ts';

export function mergeRecords(_base: StoredParts, _blocks: unknown[]): StoredParts | null {
  return null;
}
