/**
 * "The last screen ready": what a reader needs to show the end of a big session — the leaf's
 * branch, and the bodies of its last `SCREEN_ENTRIES` entries — through the core's envelope index
 * (one pass recording each line's type/id/parentId/byte range; bodies parsed only when shown).
 * Returns null when the core has no envelope index yet, so the bench can say so.
 */
export const SCREEN_ENTRIES = 50;

type Core = Record<string, unknown>;

/** Whether the core exports an envelope index this module knows how to drive. */
export function hasEnvelopeIndex(core: Core): boolean {
  return typeof core.indexEnvelopes === 'function';
}

/** Indexes the envelopes, walks the leaf's branch and parses the last screen's bodies. */
export function lastScreen(core: Core, bytes: Uint8Array, n = SCREEN_ENTRIES): unknown[] | null {
  if (!hasEnvelopeIndex(core)) return null;
  const index = (core.indexEnvelopes as (b: Uint8Array) => unknown)(bytes);
  const branch = (core.branch as (s: unknown) => unknown[])(index);
  const tail = branch.slice(-n);
  const decoder = new TextDecoder();
  // Bodies: parse just these lines (the index keeps each line's byte range).
  return tail.map((e) => {
    const { start, end } = e as { start: number; end: number };
    return JSON.parse(decoder.decode(bytes.subarray(start, end)));
  });
}
