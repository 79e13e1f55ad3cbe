/**
 * What drawing a transcript row costs, guessed from its item before it is drawn: the virtual list
 * (VirtualList.tsx) fills a task with rows up to a time budget, and rows of one kind cost ten times
 * what rows of another do (a folded tool result draws nothing; an answer of 10,000 characters in
 * markdown takes 30–45 ms at 4× CPU to render, style and lay out). Counting rows, one light row
 * made the next task take three heavy ones; counting this, a heavy row has its task to itself.
 */
import type { AssistantBlock, RenderItem, ToolView } from '../../../core/view/types.ts';
import { PREVIEW_LINES } from '../items/Output.tsx';

/** Characters of text that cost as much as a row's own frame (its header, meta line and buttons). */
const CHARS_PER_UNIT = 1500;
/** What a row costs before its text: its header, meta line and buttons. */
const ROW = 0.5;
/** A placeholder (the item is on its way), a folded result, a one-line divider. */
const SMALL = 0.1;

/** The characters of `text` a collapsed output shows (its first lines), without splitting the whole text. */
export function previewChars(text: string, lines = PREVIEW_LINES): number {
  let at = -1;
  for (let n = 0; n < lines + 2; n++) {
    at = text.indexOf('\n', at + 1);
    if (at < 0) return text.length;
  }
  return at;
}

/** A tool call's card: the command or path, the arguments when shown, the start of the output or diff. */
function toolChars(tool: ToolView): number {
  const result = tool.result;
  let chars = (tool.command ? previewChars(tool.command) : 0) + (tool.content ? previewChars(tool.content) : 0);
  if (!tool.argsShown && tool.command === undefined && tool.path === undefined) chars += tool.args.length;
  if (result) chars += previewChars(result.text) + (result.diff ? previewChars(result.diff, 40) : 0);
  return chars + 300;
}

/** A block of an assistant turn (thinking is drawn closed: its text is in the DOM but not laid out). */
function blockChars(block: AssistantBlock): number {
  switch (block.kind) {
    case 'text':
      return block.text.length + 150;
    case 'thinking':
      return 150 + block.text.length / 8;
    case 'tool':
      return toolChars(block.tool);
    case 'image':
      return 300;
    case 'other':
      return 300;
  }
}

/** The text a row draws, in characters (an estimate: what is collapsed counts little). */
function itemChars(item: RenderItem): number {
  switch (item.kind) {
    case 'user':
      return item.text.length + item.attachments.length * 300 + item.images.length * 300;
    case 'assistant': {
      let chars = 0;
      for (const block of item.blocks) chars += blockChars(block);
      return chars;
    }
    case 'toolResult':
      return toolChars(item.tool);
    case 'bash':
      return previewChars(item.command) + previewChars(item.output) + 300;
    case 'notice':
    case 'custom':
      return item.text.length;
    case 'branchSummary':
      return item.summary.length;
    case 'compaction':
      return 300 + item.summary.length / 8;
    default:
      return 0;
  }
}

/**
 * The guessed cost of drawing a row for `item` (undefined: a placeholder, its page on the way), in
 * units of about one row of a few lines; the list learns what a unit takes in time.
 */
export function rowCost(item: RenderItem | undefined): number {
  if (!item) return SMALL;
  switch (item.kind) {
    case 'folded':
    case 'divider':
    case 'labelChange':
    case 'state':
    case 'unknown':
      return SMALL;
    default:
      return ROW + itemChars(item) / CHARS_PER_UNIT;
  }
}
