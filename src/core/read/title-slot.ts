// omp's fixed-width title slot (§1.3): recognised only on the first physical line.
import type { Header, TitleSlot } from '../schema/types.ts';

/** Whether a parsed first line is omp's title slot (omp's own test; the 256-byte size is not checked). */
export function isTitleSlot(value: Record<string, unknown>): value is TitleSlot {
  return (
    value.type === 'title' &&
    value.v === 1 &&
    typeof value.title === 'string' &&
    typeof value.updatedAt === 'string' &&
    typeof value.pad === 'string' &&
    (value.source === undefined || value.source === 'auto' || value.source === 'user')
  );
}

/** Whether a first line looks like a slot attempt (so a failed one is reported, not read as a record). */
export function looksLikeTitleSlot(value: Record<string, unknown>): boolean {
  return value.type === 'title' && 'pad' in value;
}

/** Applies a slot to its header as omp does: a non-empty title replaces `title`, an empty one deletes it. */
export function applyTitleSlot(header: Header, slot: TitleSlot): void {
  if (slot.title !== '') header.title = slot.title;
  else delete header.title;
  if (slot.source !== undefined) header.titleSource = slot.source;
}
