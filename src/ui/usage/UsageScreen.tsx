import { type Agent, agentLabel } from '../../core/agent.ts';
import { useEffect, useState } from 'preact/hooks';
import { addSums, emptySums, type UsageGroup, type UsageScope } from '../../core/library-usage/index.ts';
import { displayTitle, projectName } from '../models/format.ts';
import { loaded, sessions } from '../models/library.ts';
import { formatRoute } from '../router.ts';
import { Breakdown, Section } from './Breakdown.tsx';
import { cacheText, costText, count, tokens, toolErrorsText } from './format.ts';
import { dayLabel, Heatmap } from './Heatmap.tsx';
import {
  allRows,
  customFrom,
  customTo,
  exportCsv,
  formatDay,
  fullReport,
  heatMetric,
  localDay,
  rangeKey,
  report,
  scope,
  scopeLabel,
  sessionsById,
  today,
  type RangeKey,
} from './model.ts';
import './usage.css';

const RANGES: Array<[RangeKey, string]> = [
  ['7', 'Last 7 days'],
  ['30', 'Last 30 days'],
  ['90', 'Last 90 days'],
  ['365', 'Last 365 days'],
  ['all', 'All time'],
  ['custom', 'Custom range'],
];

/** The Usage screen (`#/usage`, `#/usage?day=YYYY-MM-DD`): cost and tokens across every session, from the index. */
export function UsageScreen({ day }: { day?: string }) {
  useEffect(() => {
    today.value = localDay(Date.now());
  }, []);
  if (!loaded.value) return <main class="library usage" aria-busy="true" />;
  const r = report.value;
  const scopeText = scopeLabel.value;
  const titles = sessionsById.value;
  const sessionName = (g: UsageGroup) => {
    const s = titles.get(g.key);
    return <a href={formatRoute({ name: 'reader', id: g.key })}>{s ? displayTitle(s) : g.key}</a>;
  };
  const yearScope = `${scope.value === 'branch' ? 'Active branch of each session' : 'All branches'} · the last year`;
  return (
    <main class="library usage" data-usage-ready={sessions.value.length}>
      <nav class="usage-nav">
        <a href="#/">← Library</a>
      </nav>
      <h2 class="usage-title">Usage</h2>
      <Controls />
      <Section id="usage-totals" title="Totals" scope={scopeText}>
        <dl class="usage-totals">
          <Figure name="Cost (as recorded in the files)" value={costText(r.total)} />
          <Figure name="Tokens" value={`${tokens(r.total.tokens)} (${count(r.total.tokens)})`} />
          <Figure
            name="Token kinds"
            value={`input ${tokens(r.total.input)} · output ${tokens(r.total.output)} · cache read ${tokens(r.total.cacheRead)} · cache write ${tokens(r.total.cacheWrite)}`}
          />
          <Figure name="Cache-hit rate (prompt tokens read from cache)" value={cacheText(r.total)} />
          <Figure name="Tool calls" value={count(r.total.toolCalls)} />
          <Figure name="Tool errors" value={toolErrorsText(r.total)} />
          <Figure name="Sessions · assistant turns" value={`${count(r.sessions)} · ${count(r.total.turns)}`} />
        </dl>
        {r.undated.turns > 0 && <p class="muted">{count(r.undated.turns)} turns have no time in their files: they count in the totals, not in any day.</p>}
      </Section>
      <Section id="usage-days" title="Per day" scope={yearScope}>
        <fieldset class="usage-choice">
          <legend>Colour by</legend>
          {(['tokens', 'cost'] as const).map((m) => (
            <label key={m}>
              <input type="radio" name="heat-metric" checked={heatMetric.value === m} onChange={() => (heatMetric.value = m)} />
              {m === 'cost' ? 'Recorded cost' : 'Tokens'}
            </label>
          ))}
        </fieldset>
        <Heatmap days={fullReport.value.days} today={today.value} metric={heatMetric.value} selected={day} />
        {day && <DaySessions day={day} />}
        <DaysTable />
      </Section>
      <Section id="usage-sessions" title="Sessions that cost most" scope={`${scopeText} · a subagent counts in its parent`}>
        <Breakdown groups={r.bySession} name={sessionName} limit={10} />
      </Section>
      <Section id="usage-models" title="Per model" scope={scopeText}>
        <Breakdown groups={r.models} name={(g) => <span class="usage-key">{g.key}</span>} />
      </Section>
      <Section id="usage-projects" title="Per project" scope={`${scopeText} · a subagent counts in its parent's project`}>
        <Breakdown groups={r.projects} name={(g) => <span title={g.key}>{projectName(g.key)}</span>} />
      </Section>
      <Section id="usage-agents" title="Per agent" scope={scopeText}>
        <Breakdown groups={r.agents} name={(g) => <span>{agentLabel(g.key as Agent)}</span>} />
      </Section>
    </main>
  );
}

function Figure({ name, value }: { name: string; value: string }) {
  return (
    <div class="usage-figure">
      <dt>{name}</dt>
      <dd>{value}</dd>
    </div>
  );
}

/** Scope, range and the CSV export. */
function Controls() {
  return (
    <div class="usage-controls">
      <fieldset class="usage-choice">
        <legend>Count</legend>
        {(
          [
            ['all', 'All branches'],
            ['branch', 'Active branch'],
          ] as Array<[UsageScope, string]>
        ).map(([value, text]) => (
          <label key={value}>
            <input type="radio" name="usage-scope" checked={scope.value === value} onChange={() => (scope.value = value)} />
            {text}
          </label>
        ))}
      </fieldset>
      <label class="usage-range">
        Range{' '}
        <select value={rangeKey.value} onChange={(e) => (rangeKey.value = (e.currentTarget as HTMLSelectElement).value as RangeKey)}>
          {RANGES.map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </select>
      </label>
      {rangeKey.value === 'custom' && (
        <div class="usage-custom">
          <label>
            From <input type="date" value={customFrom.value} onChange={(e) => (customFrom.value = (e.currentTarget as HTMLInputElement).value)} />
          </label>
          <label>
            To <input type="date" value={customTo.value} onChange={(e) => (customTo.value = (e.currentTarget as HTMLInputElement).value)} />
          </label>
        </div>
      )}
      <button type="button" onClick={exportCsv}>
        Export CSV
      </button>
    </div>
  );
}

/** The sessions of one local day (a heatmap square or a table row opened it). */
function DaySessions({ day }: { day: string }) {
  const bySession = new Map<string, ReturnType<typeof emptySums>>();
  for (const row of allRows.value) if (row.day === day) bySession.set(row.session, addSums(bySession.get(row.session) ?? emptySums(), row));
  const byId = sessionsById.value;
  const list = [...bySession].sort((a, b) => b[1].cost - a[1].cost || b[1].tokens - a[1].tokens);
  return (
    <section class="usage-day card" aria-labelledby="usage-day-title">
      <h3 id="usage-day-title">Sessions on {formatDay(day)}</h3>
      <p class="usage-scope">{scope.value === 'branch' ? 'Active branch of each session' : 'All branches'} · a subagent counts in its parent</p>
      {list.length ? (
        <ul>
          {list.map(([id, s]) => {
            const summary = byId.get(id);
            return (
              <li key={id}>
                <a href={formatRoute({ name: 'reader', id })}>{summary ? displayTitle(summary) : id}</a>
                <span class="muted">
                  {' '}
                  {summary ? projectName(summary.cwd) : ''} · {costText(s)} · {tokens(s.tokens)} tokens
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
function DaysTable() {
  const [open, setOpen] = useState(false);
  const days = [...fullReport.value.days.values()].filter((g) => g.key <= today.value).sort((a, b) => (a.key < b.key ? 1 : -1));
  return (
    <details class="usage-days" onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}>
      <summary>Days as a table ({days.length})</summary>
      {open && (
        <table>
          <caption class="usage-scope">{scope.value === 'branch' ? 'Active branch of each session' : 'All branches'} · every day with usage</caption>
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
