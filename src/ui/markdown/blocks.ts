/** Streamed markdown cut into the blocks that are finished and the one still growing (StreamingMarkdown.tsx). */

/** A text cut into its finished blocks and the block still growing, and where the scan stopped. */
export interface Blocks {
  /** The text scanned, whole lines (what a longer text must start with to reuse the cut). */
  text: string;
  /** Finished blocks, each with the blank line that ended it (the same array while none is added). */
  done: readonly string[];
  /** Where the growing block starts. */
  at: number;
  /**
   * The growing block's first lines, LINES_PER_PIECE whole lines a piece (the same array while
   * none is added): shown as they are while the block grows, only its last lines change.
   */
  pieces: readonly string[];
  /** Where the growing block's lines after its pieces start. */
  rest: number;
  /** The fence (``` or ~~~, as opened) the scanned text ends inside, or ''. */
  fence: string;
}

/** Whole lines of a growing block kept together in one piece. */
export const LINES_PER_PIECE = 16;

/** The cut of no text. */
export const EMPTY_CUT: Blocks = { text: '', done: [], at: 0, pieces: [], rest: 0, fence: '' };
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Cuts markdown that grows at its end into finished blocks (ended by a blank line outside a code
 * fence) and the rest, whose whole lines are gathered in pieces. `before`: the cut of an earlier
 * text of the same reply; when `text` starts with it, only the new lines are scanned and the
 * finished blocks and pieces stay the same strings (and arrays, while nothing is added to them).
 */
export function cutBlocks(text: string, before: Blocks = EMPTY_CUT): Blocks {
  const from = text.startsWith(before.text) ? before : EMPTY_CUT;
  let { at, fence, done, pieces, rest } = from;
  let line = from.text.length;
  let lines = countLines(text, rest, line);
  // Whole lines only: the last one may still grow.
  for (let end = text.indexOf('\n', line); end >= 0; line = end + 1, end = text.indexOf('\n', line)) {
    const content = text.slice(line, end);
    const mark = FENCE.exec(content)?.[1];
    if (fence) {
      if (mark && mark[0] === fence[0] && mark.length >= fence.length && !content.slice(content.indexOf(mark) + mark.length).trim()) fence = '';
    } else if (mark) fence = mark;
    else if (!content.trim() && text.slice(at, line).trim()) {
      done = [...done, text.slice(at, end + 1)];
      at = rest = end + 1;
      pieces = [];
      lines = 0;
      continue;
    }
    if (++lines === LINES_PER_PIECE) {
      pieces = [...pieces, text.slice(rest, end + 1)];
      rest = end + 1;
      lines = 0;
    }
  }
  return { text: text.slice(0, line), done, at, pieces, rest, fence };
}

/** Line ends in `text` from `from` to `to` (fewer than LINES_PER_PIECE: the lines after the last piece). */
function countLines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
