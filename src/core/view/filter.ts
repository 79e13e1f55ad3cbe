import type { ItemFilter, Marks, RenderItem } from './types.ts';

import { ROW_ASSISTANT, ROW_ERROR, ROW_FOLDED, ROW_PROSE, ROW_TOOL, ROW_TOOL_ONLY, ROW_USER, type BranchScan } from './branch-scan.ts';

/** Whether a row passes a transcript filter, from its scan flags and label. */
export function passes(flags: number, labelled: boolean, filter: ItemFilter): boolean {
  if (flags & ROW_FOLDED) return filter === 'all';
  switch (filter) {
    case 'all':
      return true;
    case 'user':
      return (flags & ROW_USER) !== 0;
    case 'labelled':
      return labelled;
    case 'no-tools':
      if (flags & ROW_TOOL_ONLY) return false;
      return (flags & ROW_ASSISTANT) === 0 || (flags & ROW_PROSE) !== 0;
  }
}

/** Rows a filter keeps, in order. `isLabelled(row)` says whether the row's entry carries a label. */
export function filterRows(scan: BranchScan, filter: ItemFilter, isLabelled: (row: number) => boolean): number[] {
  const kept: number[] = [];
  const n = scan.flags.length;
  for (let row = 0; row < n; row++) if (passes(scan.flags[row], filter === 'labelled' && isLabelled(row), filter)) kept.push(row);
  return kept;
}

/** Positions (in the filtered list) of user messages, tool calls and errors, for keyboard jumps. */
export function buildMarks(scan: BranchScan, kept: readonly number[]): Marks {
  const marks: Marks = { user: [], tool: [], error: [] };
  kept.forEach((row, position) => {
    const flags = scan.flags[row];
    if (flags & ROW_USER) marks.user.push(position);
    if (flags & ROW_TOOL) marks.tool.push(position);
    if (flags & ROW_ERROR) marks.error.push(position);
  });
  return marks;
}

/** True when an item shows a failure: an errored turn, a failed tool, an error notice, a failed command. */
export function isError(item: RenderItem): boolean {
  switch (item.kind) {
    case 'assistant':
      return item.stopReason === 'error' || item.errorMessage !== null || item.blocks.some((b) => b.kind === 'tool' && b.tool.result?.isError === true);
    case 'toolResult':
      return item.tool.result?.isError === true;
    case 'notice':
      return item.notice === 'error';
    case 'bash':
      return item.exitCode !== null && item.exitCode !== 0;
    default:
      return false;
  }
}

/** Every searchable string of an item: text, thinking, tool arguments and output, summaries. */
export function searchableText(item: RenderItem): string {
  const parts: string[] = [];
  switch (item.kind) {
    case 'user':
      parts.push(item.text);
      for (const a of item.attachments) parts.push(a.name, a.about, a.text ?? '');
      break;
    case 'assistant':
      for (const b of item.blocks) {
        if (b.kind === 'text' || b.kind === 'thinking') parts.push(b.text);
        else if (b.kind === 'tool') parts.push(b.tool.name, b.tool.args, b.tool.result?.text ?? '', b.tool.result?.diff ?? '');
      }
      if (item.errorMessage) parts.push(item.errorMessage);
      break;
    case 'toolResult':
      parts.push(item.tool.name, item.tool.result?.text ?? '');
      break;
    case 'bash':
      parts.push(item.command, item.output);
      break;
    case 'notice':
    case 'custom':
    case 'divider':
    case 'state':
    case 'labelChange':
      parts.push(item.text);
      break;
    case 'compaction':
    case 'branchSummary':
      parts.push(item.summary);
      break;
    case 'unknown':
      parts.push(item.type);
      break;
    case 'folded':
      return '';
  }
  if (item.label) parts.push(item.label);
  return parts.join('\n');
}

/** Positions (in the filtered list) of items whose text contains the query, case-insensitively. */
export function findItems(count: number, itemAt: (position: number) => RenderItem, query: string, limit = 5000): Array<{ index: number; entryId: string }> {
  const needle = query.trim().toLowerCase();
  if (!needle) return [];
  const hits: Array<{ index: number; entryId: string }> = [];
  for (let position = 0; position < count && hits.length < limit; position++) {
    const item = itemAt(position);
    if (searchableText(item).toLowerCase().includes(needle)) hits.push({ index: position, entryId: item.entryId });
  }
  return hits;
}
