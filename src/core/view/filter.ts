import type { ItemFilter, RenderItem, SessionView } from './types.ts';

/** True when an assistant item says something beyond tool calls and thinking. */
function hasProse(item: RenderItem): boolean {
  return item.kind === 'assistant' && (item.blocks.some((b) => (b.kind === 'text' && b.text.trim()) || b.kind === 'image') || item.errorMessage !== null);
}

/** Whether an item passes a transcript filter. */
export function passes(item: RenderItem, filter: ItemFilter): boolean {
  switch (filter) {
    case 'all':
      return true;
    case 'user':
      return item.kind === 'user';
    case 'labelled':
      return item.label !== undefined;
    case 'no-tools':
      if (item.kind === 'toolResult' || item.kind === 'bash') return false;
      return item.kind !== 'assistant' || hasProse(item);
  }
}

/** Indexes (into the full list) of the items a filter keeps. */
export function filterIndexes(items: readonly RenderItem[], filter: ItemFilter): number[] {
  const kept: number[] = [];
  for (let i = 0; i < items.length; i++) if (passes(items[i], filter)) kept.push(i);
  return kept;
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

/** Positions (in the filtered list) of user messages, tool calls and errors, for keyboard jumps. */
export function buildMarks(items: readonly RenderItem[], kept: readonly number[]): SessionView['marks'] {
  const marks: SessionView['marks'] = { user: [], tool: [], error: [] };
  kept.forEach((source, position) => {
    const item = items[source];
    if (item.kind === 'user') marks.user.push(position);
    if (item.kind === 'toolResult' || item.kind === 'bash' || (item.kind === 'assistant' && item.blocks.some((b) => b.kind === 'tool'))) marks.tool.push(position);
    if (isError(item)) marks.error.push(position);
  });
  return marks;
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
  }
  if (item.label) parts.push(item.label);
  return parts.join('\n');
}

/** Items (positions in the filtered list) whose text contains the query, case-insensitively. */
export function findItems(items: readonly RenderItem[], kept: readonly number[], query: string, limit = 5000): Array<{ index: number; entryId: string }> {
  const needle = query.trim().toLowerCase();
  if (!needle) return [];
  const hits: Array<{ index: number; entryId: string }> = [];
  for (let position = 0; position < kept.length && hits.length < limit; position++) {
    const item = items[kept[position]];
    if (searchableText(item).toLowerCase().includes(needle)) hits.push({ index: position, entryId: item.entryId });
  }
  return hits;
}
