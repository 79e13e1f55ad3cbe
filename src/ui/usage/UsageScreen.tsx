import { type Agent, agentLabel } from '../../core/write/agent.ts';
import type { RefObject, VNode } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { whenIdle } from '../idle.ts';
import type { UsageGroup, UsageReport, UsageRow, UsageScope } from '../../core/library-usage/index.ts';
import type { SessionSummary } from '../models/calls.ts';
import { displayTitle, projectName } from '../models/format.ts';
import { loaded, sessions } from '../models/library.ts';
import { formatRoute } from '../router.ts';
import { Breakdown, Section } from './Breakdown.tsx';
import { cacheText, costText, count, tokens, toolErrorsText } from './format.ts';
import { Heatmap, prepareHeatmap } from './Heatmap.tsx';
import {
  allRows,
  customFrom,
  customTo,
  exportCsv,
  fullReport,
  heatMetric,
  localDay,
  modelSteps,
  chosenRange,
  rangeKey,
  report,
  scope,
  scopeLabel,
  sessionsById,
  today,
  type RangeKey,
} from './model.ts';
import { DaySessions, DaysTable } from './Days.tsx';
import './usage.css';
import { plural } from '../models/format.ts';

const RANGES: Array<[RangeKey, string]> = [
  ['7', 'Last 7 days'],
  ['30', 'Last 30 days'],
  ['90', 'Last 90 days'],
  ['365', 'Last 365 days'],
  ['all', 'All time'],
  ['custom', 'Custom range'],
];

/** The default report's steps (model.ts) and the heatmap's layout, for the idle work after boot (usage-host.tsx). */
export function prepareSteps(): Array<() => unknown> {
  return [...modelSteps(), () => prepareHeatmap(fullReport.value.days, today.value, heatMetric.value)];
}

/** What the screen draws, read from the signals while it is shown. */
interface Drawn {
  day?: string;
  r: UsageReport;
  /** The whole history's report and the records by id: what the sections under the first screenful draw (absent until then). */
  full?: UsageReport;
  rows: UsageRow[];
  scopeText: string;
  branch: boolean;
  metric: 'cost' | 'tokens';
  /** The range shown (the user's choice, else worked out from the rows). */
  range: RangeKey;
  today: string;
  byId?: Map<string, SessionSummary>;
  count: number;
}

/**
 * The Usage screen (`#/usage`, `#/usage?day=YYYY-MM-DD`): cost and tokens across every session,
 * from the index. Once shown it stays mounted (hidden) under the library, like the library under
 * it: hidden, it reads no signal (so the library's changes compute nothing here) and gives Preact
 * the element it gave last, which Preact skips; shown again on the same figures, the same. Drawn
 * ahead while hidden (`prerender`), its first open is that same case: only the host is shown.
 */
export function UsageScreen({ day, hidden = false, prerender = false }: { day?: string; hidden?: boolean; prerender?: boolean }) {
  useEffect(() => {
    if (!hidden) today.value = localDay(Date.now());
  }, [hidden]);
  const kept = useRef<{ drawn: Drawn; vnode: VNode } | null>(null);
  const main = useRef<HTMLElement | null>(null);
  // Shown before it was drawn: the first screenful (controls and totals) first, the sections under
  // it (heatmap, breakdowns) in the task after that frame; drawn ahead while hidden, all at once.
  const [rest, drawRest] = useState(false);
  const drewRest = useRef(false);
  // Waits for the screen to be shown with the library loaded (read without subscribing: the render
  // below subscribes once shown); a frame or task still pending when either changes is cancelled.
  const isLoaded = loaded.peek();
  useEffect(() => {
    if (drewRest.current || hidden || !isLoaded) return;
    let task: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      task = setTimeout(() => drawRest(true));
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(task);
    };
  }, [hidden, isLoaded]);
  // Drawn while hidden: styled and laid out in an idle period of its own.
  const ahead = useRef(false);
  useLayoutEffect(() => {
    if (!ahead.current) return;
    ahead.current = false;
    void whenIdle().then(() => layOutAhead(main.current));
  });
  // Hidden before it was ever drawn (mounted again after the reader): nothing until it is shown,
  // unless asked to draw ahead (usage-host.tsx `prerenderUsage`), once.
  if (hidden && (kept.current || !prerender || !loaded.peek())) return kept.current?.vnode ?? null;
  ahead.current = hidden;
  if (!loaded.value) return <main class="library usage" aria-busy="true" />;
  if (hidden || rest) drewRest.current = true;
  const whole = drewRest.current;
  const drawn: Drawn = {
    day,
    r: report.value,
    full: whole ? fullReport.value : undefined,
    rows: allRows.value,
    scopeText: scopeLabel.value,
    branch: scope.value === 'branch',
    metric: heatMetric.value,
    range: rangeKey.value,
    today: today.value,
    byId: whole ? sessionsById.value : undefined,
    count: sessions.value.length,
  };
  const last = kept.current?.drawn;
  if (last && kept.current && (Object.keys(drawn) as Array<keyof Drawn>).every((k) => drawn[k] === last[k])) return kept.current.vnode;
  const vnode = <UsageBody {...drawn} mainRef={main} />;
  kept.current = { drawn, vnode };
  return vnode;
}

/**
 * Styles and lays out a screen drawn while hidden, now (at idle), and hides it again in the same
 * task, so no frame shows it and nothing can focus it: its host's skipped contents keep both
 * (styles.css `.usage-host[hidden]`), and the open only shows them.
 */
function layOutAhead(main: HTMLElement | null) {
  const host = main?.parentElement;
  if (!main || !host?.hidden) return;
  host.classList.add('drawing-ahead');
  void main.offsetHeight;
  host.classList.remove('drawing-ahead');
}

function UsageBody(props: Drawn & { mainRef: RefObject<HTMLElement | null> }) {
  const { r, full, byId, scopeText, range, count: sessionCount, mainRef } = props;
  return (
    <main class="library usage" data-usage-ready={sessionCount} data-usage-whole={full && byId ? sessionCount : undefined} ref={mainRef}>
      <nav class="usage-nav">
        <a href="#/">← Library</a>
      </nav>
      <h2 class="usage-title">Usage</h2>
      <Controls range={range} />
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
        {r.undated.turns > 0 && (
          <p class="muted">
            {plural(r.undated.turns, 'turn')} {r.undated.turns === 1 ? 'has' : 'have'} no time in their files: they count in the totals, not in any day.
          </p>
        )}
      </Section>
      {full && byId && <Sections {...props} full={full} titles={byId} />}
    </main>
  );
}

/** The sections under the first screenful: the year's heatmap and days, and the breakdowns. */
function Sections({
  day,
  r,
  full,
  rows,
  scopeText,
  branch,
  metric,
  today: todayDay,
  titles,
}: Pick<Drawn, 'day' | 'r' | 'rows' | 'scopeText' | 'branch' | 'metric' | 'today'> & { full: UsageReport; titles: Map<string, SessionSummary> }) {
  const sessionName = (g: UsageGroup) => {
    const s = titles.get(g.key);
    return <a href={formatRoute({ name: 'reader', id: g.key })}>{s ? displayTitle(s) : g.key}</a>;
  };
  const yearScope = `${branch ? 'Active branch of each session' : 'All branches'} · the last year`;
  return (
    <>
      <Section id="usage-days" title="Per day" scope={yearScope}>
        <fieldset class="usage-choice">
          <legend>Colour by</legend>
          {(['tokens', 'cost'] as const).map((m) => (
            <label key={m}>
              <input type="radio" name="heat-metric" checked={metric === m} onChange={() => (heatMetric.value = m)} />
              {m === 'cost' ? 'Recorded cost' : 'Tokens'}
            </label>
          ))}
        </fieldset>
        <Heatmap days={full.days} today={todayDay} metric={metric} selected={day} />
        {day && <DaySessions day={day} rows={rows} byId={titles} branch={branch} />}
        <DaysTable days={full.days} today={todayDay} branch={branch} />
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
    </>
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

/**
 * Scope, range and the CSV export. The range comes from the screen's drawing, not read here: a
 * signal computed from the library read by this part would work the rows out again (and draw it)
 * on every change of the library while the screen is hidden, as during a sync.
 */
function Controls({ range }: { range: RangeKey }) {
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
        <select value={range} onChange={(e) => (chosenRange.value = (e.currentTarget as HTMLSelectElement).value as RangeKey)}>
          {RANGES.map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </select>
      </label>
      {chosenRange.value === null && range !== '30' && (
        <p class="usage-range-note" role="note">
          Showing {RANGES.find(([k]) => k === range)?.[1].toLowerCase()}: the last 30 days have no usage.
        </p>
      )}
      {range === 'custom' && (
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
