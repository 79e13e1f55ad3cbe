// The reader's view models (pure): entries → render items, outline, stats, context view.
export type * from './types.ts';
export { buildItems, buildItem, scanBranch, indexSession, type SessionIndex, type BranchScan } from './items.ts';
export { buildOutline, forksOf, previewOf } from './outline.ts';
export { filterRows, passes, buildMarks, isError, searchableText, findItems } from './filter.ts';
export { buildStats, emptyTotals } from './stats.ts';
export { buildContextView } from './context-view.ts';
export { displayTitleOf } from './title.ts';
export { splitUserContent, parseEnvelope, imageRef, MAX_PART_CHARS } from './parts.ts';
export {
  openReaderSession, openBranch, itemAt, chooseLeaf, keptOf, positionOf, buildSessionView, windowOf, findInBranch,
  type ReaderSession, type ReaderBranch,
} from './session.ts';
