/**
 * "The last screen ready": what a reader needs to show the end of a big session — the leaf's
 * branch, and the bodies of its last `SCREEN_ENTRIES` entries — through the core's envelope index
 * (`indexEnvelopes`: one pass recording each line's type/id/parentId/byte range; `bodiesOf` parses
 * only the entries asked for). Returns null when the core has no envelope index, so the bench can say so.
 */
export const SCREEN_ENTRIES = 50;

type Core = Record<string, unknown>;
type Index = { ids: unknown[] };

/** Whether the core exports the envelope index API this module drives. */
export function hasEnvelopeIndex(core: Core): boolean {
  return typeof core.indexEnvelopes === 'function' && typeof core.branchOfIndex === 'function' && typeof core.bodiesOf === 'function';
}

/** Indexes the envelopes, walks the leaf's branch and parses the last screen's bodies. */
export function lastScreen(core: Core, bytes: Uint8Array, n = SCREEN_ENTRIES): unknown[] | null {
  if (!hasEnvelopeIndex(core)) return null;
  const index = (core.indexEnvelopes as (b: Uint8Array) => Index)(bytes);
  const onBranch = (core.branchOfIndex as (x: Index) => number[])(index);
  return (core.bodiesOf as (x: Index, i: readonly number[]) => unknown[])(index, onBranch.slice(-n));
}
