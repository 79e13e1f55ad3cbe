// The lines of a byte range, with the ASCII ones decoded in runs: consecutive lines without a byte
// ≥ 0x80 are decoded by one TextDecoder call and cut from that string. Chromium's decoder pays a
// cost per call that one call a line makes larger than the bytes' own (56 MB of short JSONL lines:
// 177 ms a line at a time, 77 ms in 1 MB calls). A line holding non-ASCII is left to the caller (it is
// decoded on its own, so one emoji never makes its neighbours two-byte strings), and a run stops at
// RUN_MAX bytes, so a whole file is never one string.
import { firstNonAscii, type HighWords } from './ascii-line.ts';

/** At most this many bytes are decoded at once (a run of lines; a longer ASCII line goes alone). */
export const RUN_MAX = 256 * 1024;

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** An ASCII line: its text (a trailing "\r" dropped) and byte range (end excludes "\n"). */
export type AsciiLine = (text: string, start: number, end: number) => void;
/** Any other line, by its byte range (end excludes "\n"), for the caller to decode. */
export type OtherLine = (start: number, end: number) => void;

/**
 * Visits every line of bytes [start, end) in order, split on "\n" only: `end` is the input's end or
 * the position of a "\n", so the range holds one line more than the "\n"s inside it (an empty range
 * is one empty line). `words` is `highWords(bytes)`.
 */
export function forEachLineRun(bytes: Uint8Array, words: HighWords, start: number, end: number, ascii: AsciiLine, other: OtherLine): void {
  let i = start;
  for (;;) {
    const limit = Math.min(end, i + RUN_MAX);
    const high = firstNonAscii(bytes, words, i, limit);
    // Whole lines inside [i, high): up to `end` itself, or to the last "\n" before `high`.
    let runEnd = -1;
    if (high === end) runEnd = end;
    else if (high > i) {
      const nl = bytes.lastIndexOf(10, high - 1);
      if (nl >= i) runEnd = nl;
    }
    if (runEnd >= 0) {
      asciiLines(bytes, i, runEnd, ascii);
      if (runEnd === end) return;
      i = runEnd + 1;
      continue;
    }
    // The line at i holds a non-ASCII byte, or is an ASCII line longer than RUN_MAX: on its own.
    const nl = bytes.indexOf(10, i);
    const stop = nl < 0 || nl > end ? end : nl;
    if (high < limit || stop - i > RUN_MAX) other(i, stop);
    else asciiLines(bytes, i, stop, ascii);
    if (stop === end) return;
    i = stop + 1;
  }
}

// Lines of an ASCII range, decoded at once (byte offsets are character offsets).
function asciiLines(bytes: Uint8Array, start: number, end: number, visit: AsciiLine): void {
  const text = decoder.decode(bytes.subarray(start, end));
  let a = 0;
  for (;;) {
    const b = text.indexOf('\n', a);
    const stop = b < 0 ? text.length : b;
    const cut = stop > a && text.charCodeAt(stop - 1) === 13 ? stop - 1 : stop;
    visit(a === 0 && cut === text.length ? text : text.slice(a, cut), start + a, start + stop);
    if (b < 0) return;
    a = b + 1;
  }
}
