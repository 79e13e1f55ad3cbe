// What the search index keeps of a session: one small document per entry a person would look for
// (what was said, thought, called, answered, summarized, labelled, noticed), and the session's
// facts the filters read (project, models, tools, dates, whether it has errors, images, compactions).
// Images, signatures and extension state are left out; tool outputs and arguments are capped.
import { createSessionDate, noticeKind, parts, type SessionDateState, text } from '../../core/index.ts';
import { isIndexable, normalizeWord, words } from './tokens.ts';

/** Bits of `EntryDoc.flags` and `SessionMeta.flags`. */
export const HAS_ERROR = 1;
export const HAS_IMAGE = 2;
export const HAS_COMPACTION = 4;

/** What an entry is, as `role:` filters and the results name it. */
export type EntryKind = 'user' | 'assistant' | 'tool' | 'bash' | 'summary' | 'compaction' | 'notice' | 'label' | 'title';

/** One searchable entry. */
export interface EntryDoc {
  /** The entry the reader opens at (a label opens at the entry it labels). */
  id: string;
  kind: EntryKind;
  /** ms since epoch, 0 when the entry has no readable time. */
  ts: number;
  flags: number;
  text: string;
  /** Tool names (calls of an assistant message, or the tool a result answers), lowercase. */
  tools?: string[];
  model?: string;
}

/** A session's facts, for filters and ranking by date. */
export interface SessionMeta {
  id: string;
  /** Bytes of the file this was built from: when the store says otherwise, it is rebuilt. */
  size: number;
  title: string;
  cwd: string;
  /** ms of the header, and of the latest entry. */
  created: number;
  last: number;
  /** The session's date, as the library shows it (core `createSessionDate`: its latest entry but labels and names). */
  date: number;
  models: string[];
  tools: string[];
  flags: number;
}

/** Characters kept of a tool's output or of its arguments, per entry. */
export const OUTPUT_CAP = 2000;
/** Characters kept of any other part of an entry (a pasted file, a long answer). */
export const TEXT_CAP = 16000;

const cap = (s: string, n: number) => (s.length > n ? s.slice(0, n) : s);

function timeOf(v: unknown): number {
  if (typeof v === 'number') return Number.isFinite(v) ? v : 0;
  if (typeof v !== 'string') return 0;
  const t = Date.parse(v);
  return Number.isNaN(t) ? 0 : t;
}

// Every string and number inside a tool call's arguments (paths, commands, patterns), in order.
function argumentText(v: unknown, out: string[], budget: { left: number }): void {
  if (budget.left <= 0) return;
  if (typeof v === 'string' || typeof v === 'number') {
    const s = cap(String(v), budget.left);
    budget.left -= s.length;
    out.push(s);
  } else if (Array.isArray(v)) for (const x of v) argumentText(x, out, budget);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) argumentText(x, out, budget);
}

// What the index reads of a message's parts, in one walk: its text and its readable thinking (each
// joined with "\n" as core's `text` and `thinking` join them, and capped; parts past the cap are not
// gathered), and its tool calls (as core's `toolCalls` reads them).
function readParts(m: unknown, n: number): { text: string; thinking: string; calls: Array<{ name: string; arguments: unknown }> } {
  const texts: string[] = [];
  const thoughts: string[] = [];
  const calls: Array<{ name: string; arguments: unknown }> = [];
  // The length of each joined so far (-1: nothing yet, so the first part has no "\n" before it).
  let textLen = -1;
  let thoughtLen = -1;
  for (const p of parts(m)) {
    if (p.type === 'text') {
      if (typeof p.text === 'string' && textLen < n) {
        texts.push(p.text);
        textLen += p.text.length + 1;
      }
    } else if (p.type === 'thinking') {
      if (p.redacted !== true && typeof p.thinking === 'string' && thoughtLen < n) {
        thoughts.push(p.thinking);
        thoughtLen += p.thinking.length + 1;
      }
    } else if (p.type === 'toolCall') calls.push({ name: String(p.name ?? ''), arguments: p.arguments ?? {} });
  }
  return { text: cap(texts.join('\n'), n), thinking: cap(thoughts.join('\n'), n), calls };
}

const hasImage = (content: unknown) => Array.isArray(content) && content.some((p) => p && typeof p === 'object' && (p as { type?: unknown }).type === 'image');

/** The searchable document of one parsed line (null for entries nobody searches: model changes, extension state…). */
export function entryDoc(e: Record<string, unknown>): EntryDoc | null {
  const id = typeof e.id === 'string' ? e.id : '';
  // Read only for an entry that makes a document (most of a long session's custom entries do not).
  const ts = () => timeOf(e.timestamp);
  const doc = (kind: EntryKind, body: string, flags = 0, extra: Partial<EntryDoc> = {}): EntryDoc | null =>
    body || flags ? { id, kind, ts: extra.ts ?? ts(), flags, text: body, ...extra } : null;
  switch (e.type) {
    case 'message': {
      const m = e.message as Record<string, unknown> | undefined;
      if (!m || typeof m !== 'object') return null;
      const image = hasImage(m.content) ? HAS_IMAGE : 0;
      const ts2 = ts() || timeOf(m.timestamp);
      if (m.role === 'user') return doc('user', readParts(m, TEXT_CAP).text, image, { ts: ts2 });
      if (m.role === 'assistant') {
        const read = readParts(m, TEXT_CAP);
        const pieces = [read.text, read.thinking];
        const calls = read.calls;
        const budget = { left: OUTPUT_CAP };
        for (const c of calls) {
          pieces.push(c.name);
          argumentText(c.arguments, pieces, budget);
        }
        const error = m.stopReason === 'error';
        if (error && typeof m.errorMessage === 'string') pieces.push(cap(m.errorMessage, OUTPUT_CAP));
        const tools = calls.map((c) => c.name.toLowerCase()).filter(Boolean);
        return doc('assistant', pieces.filter(Boolean).join('\n'), (error ? HAS_ERROR : 0) | image, {
          ts: ts2,
          ...(tools.length ? { tools } : {}),
          ...(typeof m.model === 'string' ? { model: m.model } : {}),
        });
      }
      if (m.role === 'toolResult') {
        const name = typeof m.toolName === 'string' ? m.toolName : '';
        const body = [name, readParts(m, OUTPUT_CAP).text].filter(Boolean).join('\n');
        return doc('tool', body, (m.isError === true ? HAS_ERROR : 0) | image, { ts: ts2, ...(name ? { tools: [name.toLowerCase()] } : {}) });
      }
      if (m.role === 'bashExecution') {
        const failed = typeof m.exitCode === 'number' && m.exitCode !== 0;
        const body = [typeof m.command === 'string' ? m.command : '', typeof m.output === 'string' ? cap(m.output, OUTPUT_CAP) : ''];
        return doc('bash', body.filter(Boolean).join('\n'), failed ? HAS_ERROR : 0, { ts: ts2, tools: ['bash'] });
      }
      if (m.role === 'custom') return doc('notice', readParts(m, TEXT_CAP).text, noticeKind(m) === 'error' ? HAS_ERROR : 0, { ts: ts2 });
      if (m.role === 'branchSummary' || m.role === 'compactionSummary')
        return doc('summary', typeof m.summary === 'string' ? cap(m.summary, TEXT_CAP) : '', 0, { ts: ts2 });
      return null;
    }
    case 'custom_message':
      return doc('notice', cap(text(e), TEXT_CAP), (noticeKind(e) === 'error' ? HAS_ERROR : 0) | (hasImage(e.content) ? HAS_IMAGE : 0));
    case 'compaction':
      return doc('compaction', typeof e.summary === 'string' ? cap(e.summary, TEXT_CAP) : '', HAS_COMPACTION);
    case 'branch_summary':
      return doc('summary', typeof e.summary === 'string' ? cap(e.summary, TEXT_CAP) : '');
    case 'label':
      return typeof e.label === 'string' && typeof e.targetId === 'string' ? { id: e.targetId, kind: 'label', ts: ts(), flags: 0, text: e.label } : null;
    case 'session_info':
      return doc('title', typeof e.name === 'string' ? e.name : '');
    case 'title_change':
      return doc('title', typeof e.title === 'string' ? e.title : '');
    default:
      return null;
  }
}

/** Where a reading of a session's lines left off: enough to read lines appended after them (with its `SessionMeta`). */
export interface ExtractState {
  /** Documents made so far. */
  docs: number;
  /** The latest time of a document (the meta's `last` counts the header's in). */
  last: number;
  dates: SessionDateState;
}

/**
 * Builds a session's documents and facts line by line; `from`: the facts and state a reading of its
 * earlier lines ended with (only the documents of the lines read here are made). `emit`: each
 * document is handed to it as it is made (and not kept: `finish` gives none).
 */
export function createExtractor(id: string, title: string, from?: { meta: SessionMeta; state: ExtractState }, emit?: (doc: EntryDoc) => void) {
  const docs: EntryDoc[] = [];
  let emitted = 0;
  const models = new Set<string>(from?.meta.models);
  const tools = new Set<string>(from?.meta.tools);
  let cwd = from?.meta.cwd ?? '';
  let created = from?.meta.created ?? 0;
  let last = from?.state.last ?? 0;
  let flags = from?.meta.flags ?? 0;
  const dates = createSessionDate(from?.state.dates);
  const x = {
    /** Where this reading leaves off (for `from`). */
    state: (): ExtractState => ({ docs: (from?.state.docs ?? 0) + docs.length + emitted, last, dates: dates.state() }),
    /** One line of the file (torn or foreign lines are skipped: they hold nothing to find). */
    line(line: string): void {
      let e: unknown;
      try {
        e = JSON.parse(line);
      } catch {
        return;
      }
      if (!e || typeof e !== 'object' || Array.isArray(e)) return;
      x.value(e as Record<string, unknown>);
    },
    /** One line as parsed already (an import's scan parses each line once for both). */
    value(o: Record<string, unknown>): void {
      if (o.type === 'session') {
        if (typeof o.cwd === 'string') cwd = o.cwd;
        created = timeOf(o.timestamp);
        dates.header(o);
        return;
      }
      dates.entry(o);
      if (o.type === 'model_change' && typeof o.modelId === 'string') models.add(o.modelId.toLowerCase());
      const d = entryDoc(o);
      if (!d) return;
      if (d.ts > last) last = d.ts;
      if (d.model) models.add(d.model.toLowerCase());
      for (const t of d.tools ?? []) tools.add(t);
      flags |= d.flags;
      if (!emit) docs.push(d);
      else {
        emitted++;
        emit(d);
      }
    },
    /** The documents and the facts (`named`: the title, when it was not known at the start). */
    finish(size: number, named = title): { meta: SessionMeta; docs: EntryDoc[] } {
      const meta: SessionMeta = {
        id,
        size,
        title: named,
        cwd,
        created,
        last: Math.max(last, created),
        date: dates.date(),
        models: [...models],
        tools: [...tools],
        flags,
      };
      return { meta, docs };
    },
  };
  return x;
}

/** The words of a title or a path, as the index keeps them. */
export function fieldTerms(s: string): string[] {
  return [...new Set(words(s))].filter((w) => isIndexable(normalizeWord(w)));
}
