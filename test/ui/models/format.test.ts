import { describe, expect, test } from 'vitest';
import { formatDate, plural } from '../../../src/ui/models/format.ts';

// The list's formatters are made once and reused: what they print must be what a fresh
// toLocale*String call prints for the same date.
describe('formatDate and plural with shared formatters', () => {
  const now = Date.parse('2026-11-30T15:00:00');
  test('today as a time, this year as day and month, other years with the year', () => {
    const today = Date.parse('2026-11-30T09:05:00');
    const thisYear = Date.parse('2026-02-03T12:00:00');
    const lastYear = Date.parse('2025-12-31T23:59:00');
    expect(formatDate(today, now)).toBe(new Date(today).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' }));
    expect(formatDate(thisYear, now)).toBe(new Date(thisYear).toLocaleDateString(undefined, { day: 'numeric', month: 'short' }));
    expect(formatDate(lastYear, now)).toBe(new Date(lastYear).toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' }));
    // The same formatter again gives the same answer; an invalid date gives none.
    expect(formatDate(thisYear, now)).toBe(formatDate(thisYear, now));
    expect(formatDate(Number.NaN, now)).toBe('');
  });
  test('counts are grouped as the locale groups them', () => {
    expect(plural(1, 'entry', 'entries')).toBe('1 entry');
    expect(plural(12345, 'entry', 'entries')).toBe(`${(12345).toLocaleString()} entries`);
  });
});
