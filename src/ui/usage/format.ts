// How the Usage screen writes its figures: a cost says when no price was recorded (never "$0" for
// unknown), tokens are compact, rates are percentages or "—" when there is nothing to divide.
import { NO_PRICE } from '../../core/tree/usage.ts';
import { cacheHitRate, costRecorded, toolErrorRate, type UsageSums } from '../../core/library-usage/index.ts';
import { plural } from '../models/format.ts';

// Formatters are made once: a new Intl formatter (which toLocaleString makes on every call) costs
// about as much as drawing a row, and the screen writes thousands of figures.
const money = new Intl.NumberFormat(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const compact = new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 });
const whole = new Intl.NumberFormat();

/** 1234567 → "1,234,567" (the user's locale). */
export function count(n: number): string {
  return whole.format(n);
}

/** "$1.23", "<$0.01", "$0.00"; the amount alone. */
export function usd(n: number): string {
  if (n > 0 && n < 0.01) return '<$0.01';
  return `$${money.format(n)}`;
}

/** A recorded cost, "no price recorded", or the cost with how many turns recorded one. */
export function costText(s: UsageSums): string {
  const recorded = costRecorded(s);
  if (recorded === 'none') return s.turns ? NO_PRICE : '—';
  if (recorded === 'some') return `${usd(s.cost)} (recorded for ${count(s.costedTurns)} of ${plural(s.turns, 'turn')})`;
  return usd(s.cost);
}

/** A short cost for tight rows: "$1.23" or "n/r" (with the long form as its accessible name elsewhere). */
export function costShort(s: UsageSums): string {
  return costRecorded(s) === 'none' ? (s.turns ? NO_PRICE : '—') : usd(s.cost) + (costRecorded(s) === 'some' ? '*' : '');
}

/** 1234567 → "1.2M". */
export function tokens(n: number): string {
  return compact.format(n);
}

/** 0.4567 → "46%", null → "—". */
export function percent(x: number | null): string {
  return x === null ? '—' : `${Math.round(x * 100)}%`;
}

/** "46% of prompt tokens from cache". */
export function cacheText(s: UsageSums): string {
  return percent(cacheHitRate(s));
}

/** "3 of 120 (2.5%)". */
export function toolErrorsText(s: UsageSums): string {
  const rate = toolErrorRate(s);
  if (rate === null) return s.toolErrors ? `${plural(s.toolErrors, 'error')}, no calls recorded` : 'no tool calls';
  return `${count(s.toolErrors)} of ${count(s.toolCalls)} (${(rate * 100).toFixed(1)}%)`;
}
