// Where a query's words stand in an entry's text, and the snippet shown for it: a short window
// around the first match, whitespace folded, as plain text segments (the page makes text nodes and
// <mark> elements of them: never HTML).
import { isCjk, wordSpans } from './tokens.ts';

/** A piece of a snippet; `mark` pieces are what matched. */
export interface SnippetPart {
  text: string;
  mark?: true;
}

/** How one query word is found in a session: the index words it stands for there. */
export interface WordMatcher {
  /** Index words (normalized) that count as this query word. */
  terms: Set<string>;
}

const BEFORE = 50;
const LENGTH = 180;

/** Spans [start, end) of the text that match: each word of `matchers` (by index word) and each phrase. */
export function matchSpans(
  text: string,
  matchers: readonly WordMatcher[],
  phrases: readonly RegExp[],
): { spans: Array<[number, number]>; matched: boolean[]; phrases: boolean } {
  const spans: Array<[number, number]> = [];
  const matched = matchers.map(() => false);
  for (const { word, start, end } of wordSpans(text)) {
    for (let i = 0; i < matchers.length; i++) {
      if (matchers[i].terms.has(word)) {
        matched[i] = true;
        spans.push([start, end]);
        break;
      }
    }
  }
  let allPhrases = true;
  for (const re of phrases) {
    re.lastIndex = 0;
    let found = false;
    for (const m of text.matchAll(re)) {
      found = true;
      spans.push([m.index ?? 0, (m.index ?? 0) + m[0].length]);
    }
    allPhrases &&= found;
  }
  spans.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  // Overlapping spans (a CJK run's pairs of characters) are marked as one.
  const merged: Array<[number, number]> = [];
  for (const s of spans) {
    const last = merged.at(-1);
    if (last && s[0] < last[1]) last[1] = Math.max(last[1], s[1]);
    else merged.push([s[0], s[1]]);
  }
  return { spans: merged, matched, phrases: allPhrases };
}

/** A regular expression for a phrase: its words in order, anything but letters and digits between. */
export function phrasePattern(ws: readonly string[]): RegExp {
  const esc = ws.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  // Chinese and Japanese words have no edges in the text: a phrase starting or ending with them may stand inside a run.
  const first = ws[0] ?? '';
  const last = ws.at(-1) ?? '';
  const before = isCjk(first.slice(0, 1)) ? '' : '(?<![\\p{L}\\p{N}])';
  const after = isCjk(last.slice(-1)) ? '' : '(?![\\p{L}\\p{N}])';
  return new RegExp(`${before}${esc.join('[^\\p{L}\\p{N}]+')}${after}`, 'giu');
}

/** The snippet of `text` around its first span (or all of it: `whole`), with the spans inside it marked. */
export function snippet(text: string, spans: ReadonlyArray<[number, number]>, whole = false): SnippetPart[] {
  const first = spans[0]?.[0] ?? 0;
  let from = whole ? 0 : Math.max(0, first - BEFORE);
  // Start at the next word's edge (not in the middle of a word) when there is one before the match.
  const space = text.indexOf(' ', from);
  if (from > 0 && space >= 0 && space < first) from = space + 1;
  const to = whole ? text.length : Math.min(text.length, from + LENGTH);
  const parts: SnippetPart[] = [];
  const fold = (s: string) => s.replace(/\s+/g, ' ');
  let at = from;
  for (const [s, e] of spans) {
    if (s >= to) break;
    if (s < at) continue;
    if (s > at) parts.push({ text: fold(text.slice(at, s)) });
    parts.push({ text: fold(text.slice(s, Math.min(e, to))), mark: true });
    at = Math.min(e, to);
  }
  if (at < to) parts.push({ text: fold(text.slice(at, to)) });
  if (from > 0) parts.unshift({ text: '…' });
  if (to < text.length) parts.push({ text: '…' });
  return parts;
}
