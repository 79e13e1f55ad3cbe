/**
 * "The last screen ready": what a reader needs to show the end of a big session — the leaf's
 * branch, and the bodies of its last `SCREEN_ENTRIES` entries. Two ways:
 *   - `lastScreen`: the core's tail-first read (`tailScreen`: lines read backwards from the end,
 *     only as far as the branch walk needs), falling back to the full index where it gives up;
 *   - `lastScreenFull`: through the full envelope index (`indexEnvelopes`: one pass recording each
 *     line's type/id/parentId/byte range; `bodiesOf` parses only the entries asked for).
 * Both return null when the core lacks the API, so the bench can say so.
 */
export const SCREEN_ENTRIES = 50;

type Core = Record<string, unknown>;
type Index = { ids: unknown[] };

/** Whether the core exports the envelope index API `lastScreenFull` drives. */
export function hasEnvelopeIndex(core: Core): boolean {
  return typeof core.indexEnvelopes === 'function' && typeof core.branchOfIndex === 'function' && typeof core.bodiesOf === 'function';
}

/** Whether the core exports the tail-first `tailScreen`. */
export function hasTailScreen(core: Core): boolean {
  return typeof core.tailScreen === 'function' && hasEnvelopeIndex(core);
}

/** Indexes the envelopes, walks the leaf's branch and parses the last screen's bodies. */
export function lastScreenFull(core: Core, bytes: Uint8Array, n = SCREEN_ENTRIES): unknown[] | null {
  if (!hasEnvelopeIndex(core)) return null;
  const index = (core.indexEnvelopes as (b: Uint8Array) => Index)(bytes);
  const onBranch = (core.branchOfIndex as (x: Index) => number[])(index);
  return (core.bodiesOf as (x: Index, i: readonly number[]) => unknown[])(index, onBranch.slice(-n));
}

/** The last screen read from the end of the file (the full index where the tail way gives up). */
export function lastScreen(core: Core, bytes: Uint8Array, n = SCREEN_ENTRIES): unknown[] | null {
  if (!hasTailScreen(core)) return null;
  const tail = (core.tailScreen as (b: Uint8Array, n: number) => { entries: unknown[] } | null)(bytes, n);
  return tail ? tail.entries : lastScreenFull(core, bytes, n);
}
