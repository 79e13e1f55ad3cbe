// Which entries of a matched session are its hits: entries passing the entry filters (role, tool,
// dates, has:…; model: and project: are the session's), holding the query's phrases and as many of its words as possible (the
// index words each query word stood for in this session: its prefix completions and near spellings).
import { HAS_COMPACTION, HAS_ERROR, HAS_IMAGE, type EntryDoc, type EntryKind, type SessionMeta } from './extract.ts';
import type { ParsedQuery, RoleFilter } from './query.ts';
import { matchSpans, phrasePattern, type SnippetPart, snippet, type WordMatcher } from './snippet.ts';
import { editDistance, NON_ASCII } from './tokens.ts';

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

const escape = (w: string) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// A test of lowercase ASCII text for one query word: any of its index words, whole (a prefix may go on).
function wordTest(w: { word: string; prefix: boolean }, m: WordMatcher): RegExp {
  const alts = [...m.terms].map(escape);
  if (w.prefix && w.word.length >= 2) alts.unshift(`${escape(w.word)}[\\p{L}\\p{N}]*`);
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${alts.join('|')})(?![\\p{L}\\p{N}])`, 'u');
}

/** The session's result, or null when no entry holds its phrases (or passes its entry filters). */
export function selectHits(
  q: ParsedQuery,
  meta: SessionMeta,
  score: number,
  matchedTerms: readonly string[],
  docs: readonly EntryDoc[],
  perSession: number,
): SessionResult | null {
  const matchers = matchersFor(q, matchedTerms);
  const phrases = q.phrases.map(phrasePattern);
  const entryFilters = q.role.length + q.tool.length + q.has.length > 0 || q.after !== null || q.before !== null;
  // With entry filters, an entry must hold every word; without, the session holds them all and its
  // entries are ranked by how many they hold.
  const need = entryFilters ? matchers.length : matchers.length ? 1 : 0;
  const found: Array<{ d: EntryDoc; count: number; spans: Array<[number, number]> }> = [];
  const tests = matchers.map((m, i) => wordTest(q.words[i], m));
  for (const d of docs) {
    if (entryFilters && !entryPasses(q, d, meta)) continue;
    if (!matchers.length) {
      found.push({ d, count: 0, spans: [] });
      continue;
    }
    let count = 0;
    if (NON_ASCII.test(d.text)) {
      // Accented text is normalized word by word.
      const m = matchSpans(d.text, matchers, phrases);
      count = m.matched.filter(Boolean).length;
      if (phrases.length && !m.phrases) continue;
    } else {
      const lower = d.text.toLowerCase();
      for (const t of tests) if (t.test(lower)) count++;
      if (count >= need && phrases.length && !phrases.every((p) => ((p.lastIndex = 0), p.test(d.text)))) continue;
    }
    if (count < need) continue;
    found.push({ d, count, spans: [] });
  }
  let titleParts: SnippetPart[] | undefined;
  if (matchers.length) {
    const t = matchSpans(meta.title, matchers, phrases);
    if (t.spans.length) titleParts = snippet(meta.title, t.spans);
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
