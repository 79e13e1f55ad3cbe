// The review before sharing: what looks private in a session (or one branch), grouped by kind,
// each hit in its context. Long lists are cut per kind (the count stays whole); a kind's toggle
// covers the hits not listed.
import type { Hit } from '../../core/share/hits.ts';
import type { SessionStore, SessionSummary } from '../../storage/types.ts';
import { scanSession, type ScanScope } from './scan.ts';

/** What the review pane shows. */
export interface Review {
  /** Listed hits, file order, at most MAX_LISTED a kind. */
  hits: Hit[];
  /** Every hit counted, by kind. */
  counts: Record<string, number>;
  /** Bytes and records scanned. */
  bytes: number;
  records: number;
  /** Lines that are not JSON (left out of a cleaned copy). */
  unreadable: number;
}

/** Hits listed per kind (a session can hold thousands of home paths). */
export const MAX_LISTED = 300;

/** Scans a session for the review pane. */
export async function reviewSession(
  store: SessionStore,
  s: SessionSummary,
  where: ScanScope,
  signal?: AbortSignal,
  onBytes?: (done: number) => void,
): Promise<Review> {
  const review: Review = { hits: [], counts: {}, bytes: 0, records: 0, unreadable: 0 };
  await scanSession(
    store,
    s,
    where,
    (records) => {
      for (const r of records) {
        review.records++;
        review.bytes += r.bytes.length + 1;
        if (!r.value) review.unreadable++;
        for (const h of r.hits) {
          const n = (review.counts[h.kind] ?? 0) + 1;
          review.counts[h.kind] = n;
          if (n <= MAX_LISTED) review.hits.push(h);
        }
      }
    },
    signal,
    onBytes,
  );
  return review;
}
