import type { UsageGroup } from '../../core/library-usage/index.ts';
import { formatRoute } from '../router.ts';
import { addDays, formatDay } from './model.ts';
import { costShort, tokens } from './format.ts';

const CELL = 10;
const STEP = 12;
const LEFT = 26;
const TOP = 14;
const WEEKS = 53;
const monthFormat = new Intl.DateTimeFormat(undefined, { month: 'short' });

/** The day's figure the colour follows. */
function figureOf(g: UsageGroup | undefined, metric: 'cost' | 'tokens'): number {
  if (!g) return 0;
  return metric === 'cost' ? g.cost : g.tokens;
}

/** Words for one day, for its link's accessible name and tooltip. */
export function dayLabel(day: string, g: UsageGroup | undefined): string {
  if (!g) return `${formatDay(day)}: no usage`;
  return `${formatDay(day)}: ${costShort(g)}, ${tokens(g.tokens)} tokens, ${g.sessions} session${g.sessions === 1 ? '' : 's'}`;
}

/**
 * A calendar of the last year (weeks as columns, Monday first), one square a local day, coloured
 * by cost or tokens; a day with usage is a link that opens its sessions. Plain SVG: labelled, with
 * the same days as a table beside it (UsageScreen).
 */
export function Heatmap({ days, today, metric, selected }: { days: Map<string, UsageGroup>; today: string; metric: 'cost' | 'tokens'; selected?: string }) {
  const [y, m, d] = today.split('-').map(Number);
  // Monday of the week 52 weeks before today's week.
  const weekday = (new Date(y, m - 1, d, 12).getDay() + 6) % 7;
  const start = addDays(today, -weekday - (WEEKS - 1) * 7);
  let max = 0;
  const cells: Array<{ day: string; col: number; row: number; g: UsageGroup | undefined }> = [];
  for (let i = 0; i < WEEKS * 7; i++) {
    const day = addDays(start, i);
    if (day > today) break;
    const g = days.get(day);
    max = Math.max(max, figureOf(g, metric));
    cells.push({ day, col: Math.floor(i / 7), row: i % 7, g });
  }
  const level = (v: number) => (v <= 0 || max <= 0 ? 0 : Math.min(4, 1 + Math.floor(Math.sqrt(v / max) * 3.999)));
  const months: Array<{ col: number; name: string }> = [];
  for (const c of cells)
    if (c.row === 0 && (c.col === 0 || c.day.slice(8) <= '07') && !months.some((x) => x.col === c.col)) {
      const [cy, cm] = c.day.split('-').map(Number);
      const name = monthFormat.format(new Date(cy, cm - 1, 15));
      if (!months.length || months[months.length - 1].col < c.col - 2) months.push({ col: c.col, name });
    }
  const width = LEFT + WEEKS * STEP;
  const height = TOP + 7 * STEP;
  const label = `${metric === 'cost' ? 'Recorded cost' : 'Tokens'} per day, the last year to ${formatDay(today)}`;
  return (
    <svg class="heatmap" viewBox={`0 0 ${width} ${height}`} role="group" aria-label={label}>
      <title>{label}</title>
      {/* biome-ignore lint/a11y/noAriaHiddenOnFocusable: an SVG <g> is not focusable; the axis words are decoration (each day's link says its date) */}
      <g aria-hidden="true" class="hm-axis">
        {months.map((mo) => (
          <text key={mo.col} x={LEFT + mo.col * STEP} y={TOP - 4}>
            {mo.name}
          </text>
        ))}
        {['Mon', 'Wed', 'Fri'].map((w, i) => (
          <text key={w} x={0} y={TOP + i * 2 * STEP + CELL - 1}>
            {w}
          </text>
        ))}
      </g>
      {cells.map((c) => {
        const x = LEFT + c.col * STEP;
        const yy = TOP + c.row * STEP;
        const cls = `hm-cell hm-l${level(figureOf(c.g, metric))}${c.day === selected ? ' hm-selected' : ''}`;
        // biome-ignore lint/a11y/noAriaHiddenOnFocusable: a <rect> is not focusable; an empty day has nothing to say
        if (!c.g) return <rect key={c.day} class={cls} x={x} y={yy} width={CELL} height={CELL} rx={2} aria-hidden="true" />;
        const text = dayLabel(c.day, c.g);
        return (
          <a key={c.day} href={formatRoute({ name: 'usage', day: c.day })} aria-label={text}>
            <rect class={cls} x={x} y={yy} width={CELL} height={CELL} rx={2}>
              <title>{text}</title>
            </rect>
          </a>
        );
      })}
    </svg>
  );
}
