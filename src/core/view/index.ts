// The reader's view models (pure): entries → render items, outline, stats, context view.
export type * from './types.ts';
export { VIEW_PAGE } from './types.ts';
export { buildItem } from './items.ts';
export { scanBranch, ownerRow, type BranchScan } from './branch-scan.ts';
export { buildOutline, forksOf, previewOf } from './outline.ts';
export { filterRows, passes, buildMarks, isError, searchableText, findItems } from './filter.ts';
export { buildStats, emptyTotals } from './stats.ts';
export { formatTokens, tokenChange } from './figures.ts';
export { buildContextView } from './context-view.ts';
export { imagesInBranch, imagesOfItem } from './images.ts';
export { openSource, sourceOfIndex, newestLeaf, titleOf, type SessionSource } from './source.ts';
export { splitUserContent, parseEnvelope, imageRef, MAX_PART_CHARS } from './parts.ts';
export {
  openBranch,
  itemAt,
  chooseLeaf,
  keptOf,
  countOf,
  positionOf,
  marksOf,
  scanOf,
  buildSessionView,
  windowOf,
  findInBranch,
  type ReaderBranch,
} from './session.ts';
