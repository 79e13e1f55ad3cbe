/** Streamed markdown cut into the blocks that are finished and the one still growing (StreamingMarkdown.tsx). */

/** A text cut into its finished blocks and the block still growing, and where the scan stopped. */
export interface Blocks {
  /** The text scanned, whole lines (what a longer text must start with to reuse the cut). */
  text: string;
  /** Finished blocks, each with the blank line that ended it. */
  done: string[];
  /** Where the growing block starts. */
  at: number;
  /** The fence (``` or ~~~, as opened) the scanned text ends inside, or ''. */
  fence: string;
}

/** The cut of no text. */
export const EMPTY_CUT: Blocks = { text: '', done: [], at: 0, fence: '' };
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Cuts markdown that grows at its end into finished blocks (ended by a blank line outside a code
 * fence) and the rest. `before`: the cut of an earlier text of the same reply; when `text` starts
 * with it, only the new lines are scanned and the finished blocks stay the same strings.
 */
export function cutBlocks(text: string, before: Blocks = EMPTY_CUT): Blocks {
  const from = text.startsWith(before.text) ? before : EMPTY_CUT;
  const done = from === before ? [...before.done] : [];
  let { at, fence } = from;
  let line = from.text.length;
  // Whole lines only: the last one may still grow.
  for (let end = text.indexOf('\n', line); end >= 0; line = end + 1, end = text.indexOf('\n', line)) {
    const content = text.slice(line, end);
    const mark = FENCE.exec(content)?.[1];
    if (fence) {
      if (mark && mark[0] === fence[0] && mark.length >= fence.length && !content.slice(content.indexOf(mark) + mark.length).trim()) fence = '';
    } else if (mark) fence = mark;
    else if (!content.trim() && text.slice(at, line).trim()) {
      done.push(text.slice(at, end + 1));
      at = end + 1;
    }
  }
  return { text: text.slice(0, line), done, at, fence };
}
