import { costRecordedFor, NO_PRICE } from '../../core/tree/usage.ts';
import { plainTitle } from '../../core/tree/title.ts';
import type { SessionSummary } from './calls.ts';

/** The title a person recognises: the session's title (spec §0.5), else its first user message. */
export function displayTitle(s: Pick<SessionSummary, 'title' | 'firstMessage'>): string {
  const text = plainTitle(s.title ?? s.firstMessage ?? '');
  if (!text) return 'Untitled session';
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}

/** 1536 → "1.5 KB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

/**
 * Dates and counts as `locale` writes them (the browser's own when undefined), in the time zone of
 * the moment each formatter is first used. One formatter of each kind: toLocale*String builds a new
 * Intl formatter per call, most of the cost of drawing a library of 2,000 cards that way.
 */
export function localeFormats(locale?: string) {
  const formatters = new Map<string, Intl.DateTimeFormat>();
  const formatter = (key: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat => {
    let f = formatters.get(key);
    if (!f) formatters.set(key, (f = new Intl.DateTimeFormat(locale, options)));
    return f;
  };
  // Made on first use: the first Intl formatter of a page loads the locale's data (tens of ms),
  // which must not land in the task that evaluates the script importing this module.
  let numbers: Intl.NumberFormat | undefined;
  return {
    /** A date as people read it here: time today, else day and month (and year when not this one). */
    formatDate(ms: number, now = Date.now()): string {
      const date = new Date(ms);
      if (Number.isNaN(date.getTime())) return '';
      const today = new Date(now);
      if (date.toDateString() === today.toDateString()) return formatter('time', { hour: '2-digit', minute: '2-digit' }).format(date);
      const sameYear = date.getFullYear() === today.getFullYear();
      return sameYear
        ? formatter('day', { day: 'numeric', month: 'short' }).format(date)
        : formatter('day-year', { day: 'numeric', month: 'short', year: 'numeric' }).format(date);
    },
    /** "3 entries", "1 entry", the count grouped as the locale groups digits. */
    plural(n: number, one: string, many = `${one}s`): string {
      numbers ??= new Intl.NumberFormat(locale);
      return `${numbers.format(n)} ${n === 1 ? one : many}`;
    },
  };
}

const here = localeFormats();
/** A date as people read it here: time today, else day and month (and year when not this one). */
export const formatDate = here.formatDate;
/** "3 entries", "1 entry". */
export const plural = here.plural;

/** USD cost: "$0.42", "<$0.01", "no price recorded" (0 beside tokens), or "" when nothing was spent. */
export function formatCost(usd: number, tokens = 0): string {
  if (!costRecordedFor(usd, tokens)) return NO_PRICE;
  if (!usd) return '';
  if (usd < 0.01) return '<$0.01';
  return `$${usd.toFixed(2)}`;
}

/** A cost as tables and usage lines write it ("$0.0123" under a dollar, "$12.34"), or "no price recorded". */
export function preciseCost(usd: number, tokens: number): string {
  if (!costRecordedFor(usd, tokens)) return NO_PRICE;
  return `$${usd.toFixed(usd < 1 ? 4 : 2)}`;
}

/** "anthropic/claude-sonnet-4-5" → "claude-sonnet-4-5" (the provider is noise in a list). */
export function shortModel(model: string | null): string {
  if (!model) return '';
  return model.split(/[/:]/).pop() ?? model;
}

/** "/home/ada/projects/tide" → "tide" with the full path kept for a tooltip. */
export function projectName(cwd: string): string {
  const parts = cwd.split(/[/\\]/).filter(Boolean);
  return parts.at(-1) ?? (cwd || 'No project');
}
