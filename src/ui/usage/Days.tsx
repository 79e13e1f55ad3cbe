// The days of the Usage screen as lists: one day's sessions (opened from the heatmap or the table),
// and the heatmap's days as a table (its accessible fallback).
import { useState } from 'preact/hooks';
import { addSums, emptySums, type UsageReport, type UsageRow } from '../../core/library-usage/index.ts';
import type { SessionSummary } from '../models/calls.ts';
import { displayTitle, projectName } from '../models/format.ts';
import { formatRoute } from '../router.ts';
import { costText, tokens } from './format.ts';
import { dayLabel } from './Heatmap.tsx';
import { formatDay } from './model.ts';

/** The sessions of one local day (a heatmap square or a table row opened it). */
export function DaySessions({ day, rows, byId, branch }: { day: string; rows: UsageRow[]; byId: Map<string, SessionSummary>; branch: boolean }) {
  const bySession = new Map<string, ReturnType<typeof emptySums>>();
  for (const row of rows) if (row.day === day) bySession.set(row.session, addSums(bySession.get(row.session) ?? emptySums(), row));
  const list = [...bySession].sort((a, b) => b[1].cost - a[1].cost || b[1].tokens - a[1].tokens);
  return (
    <section class="usage-day card" aria-labelledby="usage-day-title">
      <h3 id="usage-day-title">Sessions on {formatDay(day)}</h3>
      <p class="usage-scope">{branch ? 'Active branch of each session' : 'All branches'} · a subagent counts in its parent</p>
      {list.length ? (
        <ul>
          {list.map(([id, s]) => {
            const summary = byId.get(id);
            return (
              <li key={id}>
                <a href={formatRoute({ name: 'reader', id })}>{summary ? displayTitle(summary) : id}</a>
                <span class="muted">
                  {' '}
                  {summary ? projectName(summary.cwd) : ''} · {costText(s)} · {tokens(s.tokens)} {s.tokens === 1 ? 'token' : 'tokens'}
                </span>
              </li>
            );
          })}
        </ul>
      ) : (
        <p class="muted">No usage on this day.</p>
      )}
      <a href="#/usage">Close the day</a>
    </section>
  );
}

/** The heatmap's days as a table (its accessible fallback), newest first; built only when opened. */
export function DaysTable({ days: byDay, today: todayDay, branch }: { days: UsageReport['days']; today: string; branch: boolean }) {
  const [open, setOpen] = useState(false);
  const days = [...byDay.values()].filter((g) => g.key <= todayDay).sort((a, b) => (a.key < b.key ? 1 : -1));
  return (
    <details class="usage-days" onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}>
      <summary>Days as a table ({days.length})</summary>
      {open && (
        <table>
          <caption class="usage-scope">{branch ? 'Active branch of each session' : 'All branches'} · every day with usage</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Cost</th>
              <th scope="col">Tokens</th>
              <th scope="col">Sessions</th>
            </tr>
          </thead>
          <tbody>
            {days.map((g) => (
              <tr key={g.key}>
                <th scope="row">
                  <a href={formatRoute({ name: 'usage', day: g.key })} aria-label={dayLabel(g.key, g)}>
                    {formatDay(g.key)}
                  </a>
                </th>
                <td>{costText(g)}</td>
                <td>{tokens(g.tokens)}</td>
                <td>{g.sessions}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </details>
  );
}
