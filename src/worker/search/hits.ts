// Which entries of a matched session are its hits: entries passing the entry filters (role, tool,
// dates, has:…; model: and project: are the session's), holding the query's phrases and as many of its words as possible (the
// index words each query word stood for in this session: its prefix completions and near spellings).
// Decided from the session's facts (part.ts: each entry's kind, flags, time, tools, and the entries
// each of its words stands in); texts are read only for the hits shown, and for a phrase's candidates.
import { HAS_COMPACTION, HAS_ERROR, HAS_IMAGE, type EntryKind, type SessionMeta } from './extract.ts';
import { type Part, postings, termIndex } from './part.ts';
import type { ParsedQuery, RoleFilter } from './query.ts';
import { matchSpans, phrasePattern, type SnippetPart, snippet, type WordMatcher } from './snippet.ts';
import { editDistance, foldText, isCjk } from './tokens.ts';

/** One entry that matched, with its snippet. */
export interface EntryHit {
  entryId: string;
  kind: EntryKind;
  /** ms, 0 when unknown. */
  ts: number;
  parts: SnippetPart[];
}

/** A session that matched, with its best entry hits. */
export interface SessionResult {
  id: string;
  title: string;
  cwd: string;
  /** The session's date in ms, as its library card shows it (core `createSessionDate`); 0 when unknown. */
  date: number;
  score: number;
  hits: EntryHit[];
  /** Entries that matched (hits holds the first few). */
  hitCount: number;
  /** The title with the words it matched marked, when it matched. */
  titleParts?: SnippetPart[];
}

const ROLE_KINDS: Record<RoleFilter, EntryKind[]> = {
  user: ['user'],
  assistant: ['assistant'],
  tool: ['tool', 'bash'],
  summary: ['summary', 'compaction'],
  notice: ['notice'],
  label: ['label'],
  title: ['title'],
  compaction: ['compaction'],
};

function entryPasses(q: ParsedQuery, p: Part, e: number, meta: SessionMeta): boolean {
  if (q.role.length && !q.role.some((r) => ROLE_KINDS[r].includes(p.kinds[e]))) return false;
  if (q.tool.length && !q.tool.every((t) => p.tools[e].includes(t))) return false;
  const ts = p.ts[e] || meta.last;
  if (q.after !== null && ts < q.after) return false;
  if (q.before !== null && ts >= q.before) return false;
  for (const h of q.has) {
    const bit = h === 'error' ? HAS_ERROR : h === 'image' ? HAS_IMAGE : HAS_COMPACTION;
    if ((p.flags[e] & bit) === 0) return false;
  }
  return true;
}

/** The index words that stand for each query word in a session (from the words the index matched there). */
export function matchersFor(q: ParsedQuery, matchedTerms: readonly string[]): WordMatcher[] {
  return q.words.map((w) => {
    const terms = new Set<string>([w.word]);
    for (const t of matchedTerms) {
      if (t === w.word || (w.prefix && w.word.length >= 2 && t.startsWith(w.word)) || (w.typos > 0 && editDistance(t, w.word, w.typos) <= w.typos))
        terms.add(t);
    }
    return { terms };
  });
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
// Whether a character (of folded text) is part of a word: ASCII by its code, the rest by its class.
const isWordChar = (text: string, at: number) => {
  const c = text.charCodeAt(at);
  return c < 128 ? (c >= 97 && c <= 122) || (c >= 48 && c <= 57) : LETTER_OR_DIGIT.test(text[at]);
};

/** Where folded text (see `foldText`) first holds `term` as a whole word (or as the start of one, for a prefix); -1 when nowhere. */
export function wordAt(lower: string, term: string, prefix: boolean): number {
  // A term of Chinese or Japanese characters is a piece of a run: it has no edges to find.
  const open = isCjk(term.slice(0, 1));
  const close = isCjk(term.slice(-1));
  for (let at = lower.indexOf(term); at >= 0; at = lower.indexOf(term, at + 1)) {
    if (!open && at > 0 && isWordChar(lower, at - 1)) continue;
    const end = at + term.length;
    if (prefix || close || end >= lower.length || !isWordChar(lower, end)) return at;
  }
  return -1;
}

/** Whether folded text (see `foldText`) holds `term` as a whole word (or as the start of one, for a prefix). */
export function holdsWord(lower: string, term: string, prefix: boolean): boolean {
  return wordAt(lower, term, prefix) >= 0;
}

// How far around the first match the words are looked at for a snippet (it shows less than this).
const WINDOW_BEFORE = 80;
const WINDOW_AFTER = 260;

/**
 * An entry's snippet. Only a window around the first match is split into words (tool outputs and
 * long answers run to thousands of words, and the snippet shows a line): the first match is found in
 * the folded text, where it stands in the text as well when folding kept every character's place.
 */
export function hitSnippet(
  text: string,
  lower: string,
  looks: ReadonlyArray<ReadonlyArray<[string, boolean]>>,
  matchers: readonly WordMatcher[],
  phrases: readonly RegExp[],
): SnippetPart[] {
  if (!matchers.length && !phrases.length) return snippet(text, []);
  let first = lower.length === text.length ? text.length : -1;
  for (const look of first >= 0 ? looks : []) {
    for (const [t, prefix] of look) {
      const at = wordAt(lower, t, prefix);
      if (at >= 0 && at < first) first = at;
    }
  }
  for (const p of first >= 0 ? phrases : []) {
    p.lastIndex = 0;
    const m = p.exec(text);
    if (m && m.index < first) first = m.index;
  }
  if (first >= 0 && first < text.length) {
    let lo = Math.max(0, first - WINDOW_BEFORE);
    while (lo > 0 && isWordChar(lower, lo - 1)) lo--;
    let hi = Math.min(text.length, first + WINDOW_AFTER);
    while (hi < text.length && isWordChar(lower, hi)) hi++;
    const spans = matchSpans(text.slice(lo, hi), matchers, phrases).spans.map(([s, e]): [number, number] => [s + lo, e + lo]);
    // The first match found is the one the snippet shows (else, e.g. a prefix of a word too long to be indexed, look at all of it).
    if (spans.length && spans[0][0] === first) return snippet(text, spans);
  }
  return snippet(text, matchSpans(text, matchers, phrases).spans);
}

/** What to look for in an entry for one query word: the word itself as a prefix (standing for all its
 * completions), or each index word it stands for in this session. */
export function lookFor(w: { word: string; prefix: boolean }, m: WordMatcher): Array<[string, boolean]> {
  const prefix = w.prefix && w.word.length >= 2;
  const out: Array<[string, boolean]> = prefix ? [[w.word, true]] : [];
  for (const t of m.terms) if (!(prefix && t.startsWith(w.word))) out.push([t, false]);
  return out;
}

// Phrase patterns are global (matchSpans collects every occurrence): a test starts from the top.
function holdsPhrase(p: RegExp, text: string): boolean {
  p.lastIndex = 0;
  return p.test(text);
}

/** The terms of a part that one query word's looks stand for (a prefix: every term starting with it). */
function termsOf(p: Part, look: ReadonlyArray<[string, boolean]>): Set<number> {
  const out = new Set<number>();
  for (const [t, prefix] of look) {
    if (prefix) {
      for (let i = 0; i < p.terms.length; i++) if (p.terms[i].startsWith(t)) out.add(i);
    } else {
      const i = termIndex(p, t);
      if (i >= 0) out.add(i);
    }
  }
  return out;
}

/** Entries' ids and texts by entry index (read from the session's text chunks). */
export type TextsOf = (entries: readonly number[]) => Promise<Map<number, [string, string]>>;

/** A session that matched, its hits' snippets still to be made (`snippets` reads their texts). */
export interface ChosenHits {
  result: SessionResult;
  snippets: () => Promise<void>;
}

/** The session's result, or null when no entry holds its phrases (or passes its entry filters). */
export async function selectHits(
  q: ParsedQuery,
  meta: SessionMeta,
  score: number,
  matchedTerms: readonly string[],
  part: Part,
  perSession: number,
  texts: TextsOf,
): Promise<ChosenHits | null> {
  const matchers = matchersFor(q, matchedTerms);
  const phrases = q.phrases.map(phrasePattern);
  const entryFilters = q.role.length + q.tool.length + q.has.length > 0 || q.after !== null || q.before !== null;
  // With entry filters, an entry must hold every word; without, the session holds them all and its
  // entries are ranked by how many they hold.
  const need = entryFilters ? matchers.length : matchers.length ? 1 : 0;
  const n = part.kinds.length;
  const looks = matchers.map((m, i) => lookFor(q.words[i], m));
  // How many of the query's words each entry holds, from the postings of the terms each stands for.
  const counts = new Uint16Array(n);
  const seen = new Int32Array(n).fill(-1);
  looks.forEach((look, i) => {
    for (const t of termsOf(part, look))
      for (const e of postings(part, t)) {
        if (seen[e] === i) continue;
        seen[e] = i;
        counts[e]++;
      }
  });
  let found: Array<{ e: number; count: number }> = [];
  for (let e = 0; e < n; e++) {
    if (entryFilters && !entryPasses(q, part, e, meta)) continue;
    if (matchers.length && counts[e] < need) continue;
    found.push({ e, count: counts[e] });
  }
  if (phrases.length && found.length) {
    const t = await texts(found.map((f) => f.e));
    found = found.filter((f) => phrases.every((p) => holdsPhrase(p, t.get(f.e)?.[1] ?? '')));
  }
  let titleParts: SnippetPart[] | undefined;
  if (matchers.length) {
    const t = matchSpans(meta.title, matchers, phrases);
    if (t.spans.length) titleParts = snippet(meta.title, t.spans, true);
  }
  if ((phrases.length || entryFilters) && !found.length) return null;
  // Entries that hold every word, when there are some; else those holding the most (the words are
  // spread over the session).
  const best = found.reduce((m, f) => Math.max(m, f.count), 0);
  const shown = best === matchers.length ? found.filter((f) => f.count === best) : found.sort((a, b) => b.count - a.count);
  const result: SessionResult = {
    id: meta.id,
    title: meta.title,
    cwd: meta.cwd,
    date: meta.date,
    score,
    hitCount: shown.length,
    hits: [],
    ...(titleParts ? { titleParts } : {}),
  };
  // Where the words stand is found only for the entries shown.
  const top = shown.slice(0, perSession);
  const snippets = async () => {
    const t = top.length ? await texts(top.map((f) => f.e)) : new Map<number, [string, string]>();
    result.hits = top.map(({ e }) => {
      const [id, text] = t.get(e) ?? ['', ''];
      return { entryId: id, kind: part.kinds[e], ts: part.ts[e], parts: hitSnippet(text, foldText(text), looks, matchers, phrases) };
    });
  };
  return { result, snippets };
}
