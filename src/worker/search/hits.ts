// Which entries of a matched session are its hits: entries passing the entry filters (role, tool,
// dates, has:…; model: and project: are the session's), holding the query's phrases and as many of its words as possible (the
// index words each query word stood for in this session: its prefix completions and near spellings).
import { HAS_COMPACTION, HAS_ERROR, HAS_IMAGE, type EntryDoc, type EntryKind, type SessionMeta } from './extract.ts';
import type { ParsedQuery, RoleFilter } from './query.ts';
import { matchSpans, phrasePattern, type SnippetPart, snippet, type WordMatcher } from './snippet.ts';
import { editDistance } from './tokens.ts';

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
  /** ms of its latest entry. */
  last: number;
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

function entryPasses(q: ParsedQuery, d: EntryDoc, meta: SessionMeta): boolean {
  if (q.role.length && !q.role.some((r) => ROLE_KINDS[r].includes(d.kind))) return false;
  if (q.tool.length && !q.tool.every((t) => d.tools?.includes(t))) return false;
  const ts = d.ts || meta.last;
  if (q.after !== null && ts < q.after) return false;
  if (q.before !== null && ts >= q.before) return false;
  for (const h of q.has) {
    const bit = h === 'error' ? HAS_ERROR : h === 'image' ? HAS_IMAGE : HAS_COMPACTION;
    if ((d.flags & bit) === 0) return false;
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

/** Whether folded text (see `foldText`) holds `term` as a whole word (or as the start of one, for a prefix). */
export function holdsWord(lower: string, term: string, prefix: boolean): boolean {
  for (let at = lower.indexOf(term); at >= 0; at = lower.indexOf(term, at + 1)) {
    if (at > 0 && isWordChar(lower, at - 1)) continue;
    const end = at + term.length;
    if (prefix || end >= lower.length || !isWordChar(lower, end)) return true;
  }
  return false;
}

// What to look for in an entry for one query word: the word itself as a prefix (standing for all its
// completions), or each index word it stands for in this session.
function lookFor(w: { word: string; prefix: boolean }, m: WordMatcher): Array<[string, boolean]> {
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

/** The session's result, or null when no entry holds its phrases (or passes its entry filters). */
export function selectHits(
  q: ParsedQuery,
  meta: SessionMeta,
  score: number,
  matchedTerms: readonly string[],
  docs: readonly EntryDoc[],
  perSession: number,
  /** The folded text of document i (see `foldText`). */
  lowerOf: (i: number) => string,
): SessionResult | null {
  const matchers = matchersFor(q, matchedTerms);
  const phrases = q.phrases.map(phrasePattern);
  const entryFilters = q.role.length + q.tool.length + q.has.length > 0 || q.after !== null || q.before !== null;
  // With entry filters, an entry must hold every word; without, the session holds them all and its
  // entries are ranked by how many they hold.
  const need = entryFilters ? matchers.length : matchers.length ? 1 : 0;
  const found: Array<{ d: EntryDoc; count: number; spans: Array<[number, number]> }> = [];
  const looks = matchers.map((m, i) => lookFor(q.words[i], m));
  for (let di = 0; di < docs.length; di++) {
    const d = docs[di];
    if (entryFilters && !entryPasses(q, d, meta)) continue;
    if (!matchers.length) {
      found.push({ d, count: 0, spans: [] });
      continue;
    }
    const lower = lowerOf(di);
    let count = 0;
    for (const look of looks) if (look.some(([t, prefix]) => holdsWord(lower, t, prefix))) count++;
    if (count >= need && phrases.length && !phrases.every((p) => holdsPhrase(p, d.text))) continue;
    if (count < need) continue;
    found.push({ d, count, spans: [] });
  }
  let titleParts: SnippetPart[] | undefined;
  if (matchers.length) {
    const t = matchSpans(meta.title, matchers, phrases);
    if (t.spans.length) titleParts = snippet(meta.title, t.spans, true);
  }
  if ((phrases.length || entryFilters) && !found.length) return null;
  // Entries that hold every word, when there are some; else those holding the most (the words are
  // spread over the session).
  const best = found.reduce((n, f) => Math.max(n, f.count), 0);
  const shown = best === matchers.length ? found.filter((f) => f.count === best) : found.sort((a, b) => b.count - a.count);
  return {
    id: meta.id,
    title: meta.title,
    cwd: meta.cwd,
    last: meta.last,
    score,
    hitCount: shown.length,
    // Where the words stand is found only for the entries shown.
    hits: shown
      .slice(0, perSession)
      .map(({ d }) => ({ entryId: d.id, kind: d.kind, ts: d.ts, parts: snippet(d.text, matchSpans(d.text, matchers, phrases).spans) })),
    ...(titleParts ? { titleParts } : {}),
  };
}
