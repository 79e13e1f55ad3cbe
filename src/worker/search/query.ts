// The search box's language: words (all must match; the last one may be a prefix while typing;
// small typos forgiven), "exact phrases", and filters: project: model: tool: role: after: before:
// has:error has:image has:compaction. A filter value may be quoted ("project:my app" is not, but
// project:"my app" is). Anything that is not a known filter is a word.
import { normalizeWord, plainWords, queryWords, typosAllowed } from './tokens.ts';

/** A word of the query as the index looks it up. */
export interface QueryWord {
  word: string;
  /** Matches any word starting with it (the word being typed). */
  prefix: boolean;
  /** Edits forgiven (0 inside phrases). */
  typos: number;
}

/** What an entry must be, by kind. */
export type RoleFilter = 'user' | 'assistant' | 'tool' | 'summary' | 'notice' | 'label' | 'title' | 'compaction';

/** A parsed query. */
export interface ParsedQuery {
  words: QueryWord[];
  /** Phrases as typed (lowercase), each also contributing its words to `words`. */
  phrases: string[][];
  project: string[];
  model: string[];
  tool: string[];
  role: RoleFilter[];
  /** ms: entries at or after, and strictly before. */
  after: number | null;
  before: number | null;
  has: Array<'error' | 'image' | 'compaction'>;
  /** Filters not understood (shown to the user, never silently ignored). */
  unknown: string[];
}

const ROLES: Record<string, RoleFilter> = {
  user: 'user',
  assistant: 'assistant',
  model: 'assistant',
  tool: 'tool',
  tools: 'tool',
  bash: 'tool',
  summary: 'summary',
  notice: 'notice',
  label: 'label',
  title: 'title',
  compaction: 'compaction',
};
const TOKEN = /(-?)(\w+):"([^"]*)"?|(\w+):(\S+)|"([^"]*)"?|(\S+)/g;

// A day as typed (2026-03-04, 2026-03, 2026) in the user's local time: [start, end).
function dayRange(s: string): [number, number] | null {
  const m = /^(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?$/.exec(s);
  if (!m) {
    const t = Date.parse(s);
    return Number.isNaN(t) ? null : [t, t];
  }
  const y = Number(m[1]);
  const mo = m[2] ? Number(m[2]) - 1 : 0;
  const d = m[3] ? Number(m[3]) : 1;
  const start = new Date(y, mo, d).getTime();
  const end = m[3] ? new Date(y, mo, d + 1).getTime() : m[2] ? new Date(y, mo + 1, 1).getTime() : new Date(y + 1, 0, 1).getTime();
  return [start, end];
}

/** Parses what was typed; `typing` says the last word may still grow (a prefix). */
export function parseQuery(input: string, typing = true): ParsedQuery {
  const q: ParsedQuery = { words: [], phrases: [], project: [], model: [], tool: [], role: [], after: null, before: null, has: [], unknown: [] };
  const plain: string[] = [];
  for (const m of input.matchAll(TOKEN)) {
    const key = (m[2] ?? m[4])?.toLowerCase();
    const value = m[3] ?? m[5];
    if (key !== undefined && value !== undefined) {
      if (!applyFilter(q, key, value)) plain.push(m[0]);
      continue;
    }
    if (m[6] !== undefined) {
      const ws = queryWords(m[6]);
      // A phrase is matched in the text by its runs of letters (a CJK run whole, its pairs being no words of the text).
      const runs = plainWords(m[6]);
      if (ws.length > 1) q.phrases.push(runs);
      for (const w of ws) q.words.push({ word: w, prefix: false, typos: 0 });
      continue;
    }
    plain.push(m[7]);
  }
  const ws = plain.flatMap((p) => queryWords(p));
  // The last word is a prefix only while it is being typed (no space after it, not inside a phrase).
  const lastIsTyped = typing && !/\s$/.test(input) && !/"\s*$/.test(input) && ws.length > 0;
  ws.forEach((w, i) => q.words.push({ word: w, prefix: lastIsTyped && i === ws.length - 1, typos: typosAllowed(w) }));
  return q;
}

function applyFilter(q: ParsedQuery, key: string, value: string): boolean {
  const v = value.trim().toLowerCase();
  switch (key) {
    case 'project':
    case 'cwd':
      if (v) q.project.push(v);
      return true;
    case 'model':
      if (v) q.model.push(v);
      return true;
    case 'tool':
      if (v) q.tool.push(normalizeWord(v));
      return true;
    case 'role':
    case 'kind':
      if (ROLES[v]) q.role.push(ROLES[v]);
      else q.unknown.push(`${key}:${value}`);
      return true;
    case 'after':
    case 'before': {
      const r = dayRange(v);
      if (!r) q.unknown.push(`${key}:${value}`);
      else if (key === 'after') q.after = r[0];
      else q.before = r[0];
      return true;
    }
    case 'has':
      if (v === 'error' || v === 'errors') q.has.push('error');
      else if (v === 'image' || v === 'images') q.has.push('image');
      else if (v === 'compaction' || v === 'compactions') q.has.push('compaction');
      else q.unknown.push(`has:${value}`);
      return true;
    default:
      // "http://…" or "note:" in prose: words, not a filter.
      return false;
  }
}

/** Whether a query asks for anything at all. */
export function isEmptyQuery(q: ParsedQuery): boolean {
  return !q.words.length && !q.project.length && !q.model.length && !q.tool.length && !q.role.length && q.after === null && q.before === null && !q.has.length;
}
