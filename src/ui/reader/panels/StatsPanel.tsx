import { useEffect } from 'preact/hooks';
import type { StatsView, TotalsView } from '../../../core/view/types.ts';
import type { ReaderModel } from '../model.ts';
import { FamilyTotals } from './Subagents.tsx';
import { plural, preciseCost } from '../../models/format.ts';
import './panel.css';

const n = (x: number) => x.toLocaleString();
const short = (x: number) => (x >= 1e6 ? `${(x / 1e6).toFixed(1)}M` : x >= 1e3 ? `${(x / 1e3).toFixed(1)}k` : String(x));

function TotalsTable({ branch, file, caption, perModel = false }: { branch: TotalsView; file: TotalsView; caption: string; perModel?: boolean }) {
  const rows: Array<[string, (t: TotalsView) => string]> = [
    ['Assistant turns', (t) => n(t.turns)],
    ['User messages', (t) => n(t.userMessages)],
    ['Tool calls', (t) => n(t.toolCalls)],
    ['Errored turns', (t) => n(t.errors)],
    ['Input tokens (not cached)', (t) => n(t.input)],
    ['Output tokens', (t) => n(t.output)],
    ['Cache read', (t) => n(t.cacheRead)],
    ['Cache write', (t) => n(t.cacheWrite)],
    ['Total tokens', (t) => n(t.tokens)],
    ['Cost', (t) => preciseCost(t.cost, t.tokens)],
  ];
  const shown = perModel ? rows.filter(([label]) => label !== 'User messages') : rows;
  return (
    <table class="rd-stats-table">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">
            <span class="rd-sr">Measure</span>
          </th>
          <th scope="col">This branch</th>
          <th scope="col">Whole file (all branches)</th>
        </tr>
      </thead>
      <tbody>
        {shown.map(([label, get]) => (
          <tr key={label}>
            <th scope="row">{label}</th>
            <td>{get(branch)}</td>
            <td>{get(file)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Context size over the turns, compactions marked: an SVG made of Preact elements. */
export function ContextChart({ series }: { series: StatsView['series'] }) {
  if (series.length < 2) return <p class="muted">Not enough turns with usage to chart.</p>;
  const width = 600;
  const height = 160;
  const pad = 40;
  const max = Math.max(...series.map((p) => p.tokens), 1);
  const x = (i: number) => pad + ((width - pad * 2) * i) / (series.length - 1);
  const y = (t: number) => height - pad - ((height - pad * 2) * t) / max;
  // Thin the line for very long sessions: at most ~600 points are drawn.
  const step = Math.max(1, Math.floor(series.length / 600));
  const points: string[] = [];
  for (let i = 0; i < series.length; i += step) points.push(`${x(i).toFixed(1)},${y(series[i].tokens).toFixed(1)}`);
  const compactions = series.map((p, i) => (p.compaction ? i : -1)).filter((i) => i >= 0);
  return (
    <figure class="rd-chart">
      <svg
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-label={`Context size over ${plural(series.length, 'turn')}, peak ${plural(max, 'token')}, ${plural(compactions.length, 'compaction')}`}
      >
        <line class="axis" x1={pad} y1={height - pad} x2={width - pad} y2={height - pad} />
        <line class="axis" x1={pad} y1={pad} x2={pad} y2={height - pad} />
        <text class="tick" x={pad - 4} y={pad + 4} text-anchor="end">
          {short(max)}
        </text>
        <text class="tick" x={pad - 4} y={height - pad} text-anchor="end">
          0
        </text>
        {compactions.map((i) => (
          <line key={i} class="compaction" x1={x(i)} y1={pad} x2={x(i)} y2={height - pad} />
        ))}
        <polyline class="series" points={points.join(' ')} />
        <text class="tick" x={width - pad} y={height - 8} text-anchor="end">
          turn {series.length}
        </text>
      </svg>
      <figcaption class="muted">Prompt tokens per assistant turn on this branch{compactions.length ? '; dashed lines: compactions' : ''}.</figcaption>
    </figure>
  );
}

/** Stats: branch vs whole file, per model, and the context chart. */
export function StatsPanel({ model }: { model: ReaderModel }) {
  useEffect(() => {
    void model.loadStats();
  }, [model.view.value?.leafId]);
  const stats = model.stats.value;
  if (!stats)
    return (
      <p class="rd-pad muted" role="status">
        Counting…
      </p>
    );
  return (
    <div class="rd-panel rd-stats">
      <h2>Stats</h2>
      <TotalsTable branch={stats.branch} file={stats.file} caption="Totals" />
      <FamilyTotals model={model} />
      <h3>Context size</h3>
      <ContextChart series={stats.series} />
      <h3>Per model</h3>
      {stats.perModel.map((m) => (
        <TotalsTable key={m.model} branch={m.branch} file={m.file} caption={m.model} perModel />
      ))}
    </div>
  );
}
