// The Usage screen's state: scope, date range and heatmap metric, and the report computed from
// the library's index records (the `sessions` signal already holds them; no file is read).
import { computed, signal } from '@preact/signals';
import { SLICE_MS, summarizeUsage, usageCsv, usageRows, type UsageReport, type UsageRow, type UsageScope } from '../../core/library-usage/index.ts';
import { sessions } from '../models/library.ts';
import { downloadBlob } from '../platform.ts';

/** Which preset range is chosen ('custom' uses `customFrom`/`customTo`). */
export type RangeKey = '7' | '30' | '90' | '365' | 'all' | 'custom';

/** Active branch of each session, or every branch of its file. */
export const scope = signal<UsageScope>('all');
/** The range the user chose (null: none yet, the screen picks one that has data). */
export const chosenRange = signal<RangeKey | null>(null);

/** The presets tried, shortest first, when the user has chosen none: the first with usage in it is shown. */
const FIRST_RANGES: RangeKey[] = ['30', '90', '365', 'all'];
/** Custom range, local days `YYYY-MM-DD` (inclusive). */
export const customFrom = signal('');
export const customTo = signal('');
/** What the heatmap colours: recorded cost or tokens. */
export const heatMetric = signal<'cost' | 'tokens'>('tokens');
const pad = (n: number) => String(n).padStart(2, '0');

/** The user's local day of a time (ms), as `YYYY-MM-DD`. */
export function localDay(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** "Today" for ranges and the heatmap (a signal so the screen can move it on when it opens after midnight). */
export const today = signal(localDay(Date.now()));

/** The local day `n` days after `day` (negative: before). */
export function addDays(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number);
  const date = new Date(y, m - 1, d + n, 12);
  return localDay(date.getTime());
}

// Kept across recomputations (a scope or range change): slices do not change their local day.
const sliceDays = new Map<number, string>();

/** The local day of a 15-minute slice: every zone's offset is a multiple of 15 minutes. */
function dayOfSlice(slice: number): string {
  let day = sliceDays.get(slice);
  if (day === undefined) sliceDays.set(slice, (day = localDay(slice * SLICE_MS)));
  return day;
}

/** First and last day of a range (undefined: open). */
function rangeOf(key: RangeKey): { from?: string; to?: string } {
  if (key === 'all') return {};
  if (key === 'custom') return { from: customFrom.value || undefined, to: customTo.value || undefined };
  return { from: addDays(today.value, -(Number(key) - 1)), to: today.value };
}

/**
 * The date range of every figure but the heatmap (which always shows the last year): the user's
 * choice, else the shortest of the last 30 days, 90 days, year and all time that holds usage.
 */
export const rangeKey = computed<RangeKey>(() => {
  const chosen = chosenRange.value;
  if (chosen) return chosen;
  // The last day with usage decides (rows are per day; '' is a turn without a time).
  let last = '';
  for (const r of allRows.value) if (r.day > last) last = r.day;
  if (!last) return 'all';
  return FIRST_RANGES.find((key) => {
    const { from } = rangeOf(key);
    return from === undefined || last >= from;
  }) as RangeKey;
});

/** First and last day of the range shown (undefined: open). */
export const range = computed<{ from?: string; to?: string }>(() => rangeOf(rangeKey.value));

// Rows and reports of each scope and range, kept until the library's records change: switching
// scope or range back and forth draws again but computes nothing it has computed before.
let keptFor: readonly unknown[] | null = null;
const kept = new Map<string, unknown>();
function keep<T>(key: string, make: () => T): T {
  const records = sessions.value;
  if (keptFor !== records || kept.size > 24) {
    kept.clear();
    keptFor = records;
  }
  let value = kept.get(key) as T | undefined;
  if (value === undefined) kept.set(key, (value = make()));
  return value;
}

/** The library's records by id (the screen names sessions by them). */
export const sessionsById = computed(() => new Map(sessions.value.map((s) => [s.id, s])));

/** Every row (day × session × model) of the scope, without a range. */
export const allRows = computed<UsageRow[]>(() => {
  const s = scope.value;
  return keep(`rows ${s}`, () => usageRows(sessions.value, { scope: s, dayOf: dayOfSlice }));
});

const rangeId = (r: { from?: string; to?: string }) => `${scope.value} ${r.from ?? ''} ${r.to ?? ''}`;

/** Rows in the chosen range. */
export const rangedRows = computed<UsageRow[]>(() => {
  const { from, to } = range.value;
  const rows = allRows.value;
  if (from === undefined && to === undefined) return rows;
  return keep(`ranged ${rangeId(range.value)}`, () =>
    rows.filter((r) => r.day !== '' && (from === undefined || r.day >= from) && (to === undefined || r.day <= to)),
  );
});

/** The whole history's report (the heatmap's days). */
export const fullReport = computed<UsageReport>(() => {
  const rows = allRows.value;
  return keep(`full ${scope.value}`, () => summarizeUsage(rows));
});

/** The report of the chosen range. */
export const report = computed<UsageReport>(() => {
  const rows = rangedRows.value;
  if (rows === allRows.value) return fullReport.value;
  return keep(`report ${rangeId(range.value)}`, () => summarizeUsage(rows));
});

/**
 * The figures the screen's first open reads, each a step that computes it from the records (and
 * keeps it until they change): run at idle after boot (usage-host.tsx), one step an idle period.
 */
export function modelSteps(): Array<() => unknown> {
  return [() => sessionsById.value, () => allRows.value, () => fullReport.value, () => report.value, () => scopeLabel.value];
}

/** Words for the scope and range every figure carries. */
export const scopeLabel = computed(() => {
  const branches = scope.value === 'branch' ? 'Active branch of each session' : 'All branches';
  const { from, to } = range.value;
  const when = from === undefined && to === undefined ? 'all time' : `${from ? formatDay(from) : 'the start'} – ${to ? formatDay(to) : 'today'}`;
  return `${branches} · ${when}`;
});

const dayFormat = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric' });
const dayWords = new Map<string, string>();

/** "3 Mar 2026" from `2026-03-03` (the user's locale; one formatter, and each day's words kept). */
export function formatDay(day: string): string {
  let words = dayWords.get(day);
  if (words === undefined) {
    const [y, m, d] = day.split('-').map(Number);
    dayWords.set(day, (words = dayFormat.format(new Date(y, m - 1, d, 12))));
  }
  return words;
}

/** Downloads the range's rows as CSV through the platform's download path. */
export function exportCsv(): void {
  const { from, to } = range.value;
  const csv = usageCsv(rangedRows.value, sessions.value, scope.value);
  const span = from || to ? `${from ?? 'start'}_${to ?? 'today'}` : 'all-time';
  downloadBlob(new Blob([csv], { type: 'text/csv;charset=utf-8' }), `rho-usage_${scope.value === 'branch' ? 'active-branch' : 'all-branches'}_${span}.csv`);
}
