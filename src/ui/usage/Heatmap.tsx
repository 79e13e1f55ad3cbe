import type { UsageGroup } from '../../core/library-usage/index.ts';
import { formatRoute } from '../router.ts';
import { addDays, formatDay } from './model.ts';
import { costShort, tokens } from './format.ts';
import { plural } from '../models/format.ts';

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
  return `${formatDay(day)}: ${costShort(g)}, ${tokens(g.tokens)} ${g.tokens === 1 ? 'token' : 'tokens'}, ${plural(g.sessions, 'session')}`;
}

interface Cell {
  day: string;
  x: number;
  y: number;
  level: number;
  href: string;
  label: string;
}

interface Layout {
  /** Days with usage: each a link. */
  cells: Cell[];
  /** Days without usage, as one path of squares. */
  empty: string;
  months: Array<{ col: number; name: string }>;
}

// The last layout drawn: the screen opened again on the same report (its groups are kept per
// scope and range, model.ts) reuses it instead of formatting a year of days again.
let last: { days: Map<string, UsageGroup>; today: string; metric: string; layout: Layout } | null = null;

function layoutOf(days: Map<string, UsageGroup>, today: string, metric: 'cost' | 'tokens'): Layout {
  if (last && last.days === days && last.today === today && last.metric === metric) return last.layout;
  const [y, m, d] = today.split('-').map(Number);
  // Monday of the week 52 weeks before today's week.
  const weekday = (new Date(y, m - 1, d, 12).getDay() + 6) % 7;
  const start = addDays(today, -weekday - (WEEKS - 1) * 7);
  let max = 0;
  const all: Array<{ day: string; col: number; row: number; g: UsageGroup | undefined }> = [];
  for (let i = 0; i < WEEKS * 7; i++) {
    const day = addDays(start, i);
    if (day > today) break;
    const g = days.get(day);
    max = Math.max(max, figureOf(g, metric));
    all.push({ day, col: Math.floor(i / 7), row: i % 7, g });
  }
  const level = (v: number) => (v <= 0 || max <= 0 ? 0 : Math.min(4, 1 + Math.floor(Math.sqrt(v / max) * 3.999)));
  const months: Array<{ col: number; name: string }> = [];
  const cells: Cell[] = [];
  let empty = '';
  for (const c of all) {
    if (c.row === 0 && (c.col === 0 || c.day.slice(8) <= '07') && !months.some((x) => x.col === c.col)) {
      const [cy, cm] = c.day.split('-').map(Number);
      const name = monthFormat.format(new Date(cy, cm - 1, 15));
      if (!months.length || months[months.length - 1].col < c.col - 2) months.push({ col: c.col, name });
    }
    const x = LEFT + c.col * STEP;
    const yy = TOP + c.row * STEP;
    // An empty day: a square inset by the path's 1-unit round stroke (the same 10 × 10, corners rounded).
    if (!c.g) empty += `M${x + 1} ${yy + 1}h${CELL - 2}v${CELL - 2}h${2 - CELL}z`;
    else
      cells.push({ day: c.day, x, y: yy, level: level(figureOf(c.g, metric)), href: formatRoute({ name: 'usage', day: c.day }), label: dayLabel(c.day, c.g) });
  }
  const layout = { cells, empty, months };
  last = { days, today, metric, layout };
  return layout;
}

/** Lays out the heatmap ahead of its drawing (kept for the draw of the same days, day and metric). */
export function prepareHeatmap(days: Map<string, UsageGroup>, today: string, metric: 'cost' | 'tokens'): void {
  layoutOf(days, today, metric);
}

/** Writes the day under the pointer or focus into the line under the heatmap (one text node, no re-render). */
function showDay(e: Event) {
  const svg = e.currentTarget as SVGSVGElement;
  const out = svg.nextElementSibling;
  if (!out) return;
  const link = (e.target as Element).closest?.('a');
  out.textContent = link?.getAttribute('aria-label') ?? '\u00a0';
}

/**
 * A calendar of the last year (weeks as columns, Monday first), one square a local day, coloured
 * by cost or tokens; a day with usage is a link that opens its sessions (its figures are its
 * accessible name, and show in the line under the heatmap while it is pointed at or focused).
 * Plain SVG with few nodes: a link and a square a day with usage, one path for every empty day;
 * labelled, with the same days as a table beside it (UsageScreen).
 */
export function Heatmap({ days, today, metric, selected }: { days: Map<string, UsageGroup>; today: string; metric: 'cost' | 'tokens'; selected?: string }) {
  const { cells, empty, months } = layoutOf(days, today, metric);
  const width = LEFT + WEEKS * STEP;
  const height = TOP + 7 * STEP;
  const label = `${metric === 'cost' ? 'Recorded cost' : 'Tokens'} per day, the last year to ${formatDay(today)}`;
  return (
    <>
      <svg class="heatmap" viewBox={`0 0 ${width} ${height}`} role="group" aria-label={label} onPointerOver={showDay} onFocusIn={showDay}>
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
        {/* biome-ignore lint/a11y/noAriaHiddenOnFocusable: a <path> is not focusable; an empty day has nothing to say */}
        {empty && <path class="hm-empty" d={empty} aria-hidden="true" />}
        {cells.map((c) => (
          <a key={c.day} href={c.href} aria-label={c.label}>
            <rect class={`hm-cell hm-l${c.level}${c.day === selected ? ' hm-selected' : ''}`} x={c.x} y={c.y} width={CELL} height={CELL} rx={2} />
          </a>
        ))}
      </svg>
      <p class="hm-hover muted" aria-hidden="true">
        {'\u00a0'}
      </p>
    </>
  );
}
