// The head of a Markdown copy: title, date, project, models and totals.
import { parts, typed } from '../tree/readers.ts';
import { displayTitle, titleFromText } from '../tree/title.ts';
import type { Entry, ParsedSession } from '../schema/types.ts';
import { totals } from '../tree/usage.ts';
import { codeSpan } from './md-text.ts';

/** A session's title for a shared copy: its display title, else its first user message, else "Session". */
export function shareTitle(session: ParsedSession): string {
  const title = displayTitle(session);
  if (title) return title;
  for (const e of session.entries) {
    const m = e.message as Record<string, unknown> | undefined;
    if (e.type === 'message' && m?.role === 'user') {
      const t = titleFromText(typed(m));
      if (t) return t;
    }
  }
  return 'Session';
}

/** An ISO time as `2026-05-11 05:28 UTC` (the copy reads the same wherever it is opened). */
export function formatTime(iso: unknown): string | null {
  if (typeof iso !== 'string') return null;
  const m = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d)/.exec(iso);
  return m ? `${m[1]} ${m[2]} UTC` : null;
}

/** The models that answered, as `provider/model`, in order of first use. */
export function modelsOf(entries: readonly Entry[]): string[] {
  const seen = new Set<string>();
  for (const e of entries) {
    const m = e.message as Record<string, unknown> | undefined;
    if (e.type !== 'message' || m?.role !== 'assistant' || typeof m.model !== 'string') continue;
    seen.add(typeof m.provider === 'string' && m.provider ? `${m.provider}/${m.model}` : m.model);
  }
  return [...seen];
}

const number = (n: number) => Math.round(n).toLocaleString('en-US');

/** The Markdown head: `# title` and a table of date, project, models, messages, tokens and cost. */
export function renderHeader(session: ParsedSession, entries: readonly Entry[], scopeNote: string): string {
  const rows: Array<[string, string]> = [];
  const date = formatTime(session.header?.timestamp ?? entries[0]?.timestamp);
  if (date) rows.push(['Date', date]);
  if (session.header?.cwd) rows.push(['Project', codeSpan(session.header.cwd)]);
  const models = modelsOf(entries);
  if (models.length) rows.push(['Models', models.map((m) => codeSpan(m)).join(', ')]);
  let users = 0;
  let assistants = 0;
  let tools = 0;
  for (const e of entries) {
    const role = (e.message as { role?: unknown } | undefined)?.role;
    if (e.type !== 'message') continue;
    if (role === 'user') users++;
    else if (role === 'assistant') {
      assistants++;
      tools += parts(e.message).filter((p) => p.type === 'toolCall').length;
    }
  }
  rows.push(['Messages', `${number(users)} from the user, ${number(assistants)} from the assistant, ${number(tools)} tool calls`]);
  const t = totals(entries);
  if (t.tokens) rows.push(['Tokens', `${number(t.tokens)} (${number(t.output)} output)`]);
  if (t.cost) rows.push(['Cost', `$${t.cost.toFixed(t.cost < 1 ? 4 : 2)}`]);
  rows.push(['Scope', scopeNote]);
  const table = ['| | |', '|---|---|', ...rows.map(([k, v]) => `| ${k} | ${v.replace(/\|/g, '\\|')} |`)].join('\n');
  return `# ${shareTitle(session).replace(/\n/g, ' ')}\n\n${table}`;
}
