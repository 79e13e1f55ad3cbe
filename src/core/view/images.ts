// The pictures of a branch, in reading order: what the reader's full-screen viewer steps through.
import { itemAt, keptOf, type ReaderBranch } from './session.ts';
import type { SessionSource } from './source.ts';
import type { BranchImage, ImageRef, ItemFilter, RenderItem } from './types.ts';

/** The images an item shows, in the order it draws them (text first, tool results after their call). */
export function imagesOfItem(item: RenderItem): ImageRef[] {
  switch (item.kind) {
    case 'user':
      return [...item.attachments.flatMap((a) => (a.image ? [a.image] : [])), ...item.images];
    case 'assistant':
      return item.blocks.flatMap((b) => (b.kind === 'image' ? [b.image] : b.kind === 'tool' ? (b.tool.result?.images ?? []) : []));
    case 'toolResult':
      return item.tool.result?.images ?? [];
    case 'bash':
    case 'notice':
    case 'custom':
      return item.images;
    default:
      return [];
  }
}

/** Every picture the page can show on a branch under a filter (builds each item once, as find does). */
export function imagesInBranch(source: SessionSource, branch: ReaderBranch, filter: ItemFilter): BranchImage[] {
  const kept = keptOf(source, branch, filter);
  const count = kept ? kept.length : branch.branch.length;
  const out: BranchImage[] = [];
  for (let p = 0; p < count; p++) {
    const item = itemAt(source, branch, kept ? kept[p] : p);
    for (const image of imagesOfItem(item)) if (image.showable) out.push({ index: p, image });
  }
  return out;
}
