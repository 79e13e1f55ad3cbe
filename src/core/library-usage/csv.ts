// The Usage screen's CSV export: one line per local day × session × model, with the scope and
// whether cost was recorded spelled out (an empty cost cell means "not recorded", never $0).
import type { UsageRecord, UsageRow, UsageScope } from './aggregate.ts';

const HEADER = [
  'day',
  'scope',
  'session_id',
  'session_title',
  'project',
  'agent',
  'model',
  'source_session_id',
  'turns',
  'input_tokens',
  'output_tokens',
  'cache_read_tokens',
  'cache_write_tokens',
  'total_tokens',
  'cost_usd',
  'cost_recorded_turns',
  'tool_calls',
  'tool_errors',
];

/** One CSV field: quoted when needed; text that a spreadsheet would run as a formula is prefixed with `'`. */
export function csvField(value: string | number): string {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** The CSV text (RFC 4180, CRLF line ends) of usage rows; titles come from the records. */
export function usageCsv(rows: readonly UsageRow[], records: readonly UsageRecord[], scope: UsageScope): string {
  const titles = new Map(records.map((r) => [r.id, r.title ?? r.firstMessage ?? '']));
  const lines = [HEADER.join(',')];
  for (const r of rows) {
    lines.push(
      [
        r.day,
        scope === 'branch' ? 'active branch' : 'all branches',
        r.session,
        titles.get(r.session) ?? '',
        r.project,
        r.agent,
        r.model,
        r.source,
        r.turns,
        r.input,
        r.output,
        r.cacheRead,
        r.cacheWrite,
        r.tokens,
        r.costedTurns > 0 ? Number(r.cost.toFixed(10)) : '',
        r.costedTurns,
        r.toolCalls,
        r.toolErrors,
      ]
        .map(csvField)
        .join(','),
    );
  }
  return lines.join('\r\n') + '\r\n';
}
