// How the library writes dates and counts, for fixed locales and time zones: the expected strings
// are written out (what a reader of that locale sees), not computed with Intl.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { localeFormats } from '../../../src/ui/models/format.ts';

const now = Date.parse('2026-11-30T15:00:00Z');
const today = Date.parse('2026-11-30T09:05:00Z');
const thisYear = Date.parse('2026-02-03T12:00:00Z');
const lastYear = Date.parse('2025-12-31T23:59:00Z');

// Node follows a change of TZ at once; each test makes its formatters after setting it.
let zone: string | undefined;
beforeEach(() => {
  zone = process.env.TZ;
});
afterEach(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

describe('dates in UTC', () => {
  beforeEach(() => {
    process.env.TZ = 'UTC';
  });
  test.each([
    ['en-GB', '09:05', '3 Feb', '31 Dec 2025'],
    ['en-US', '09:05 AM', 'Feb 3', 'Dec 31, 2025'],
    ['de-DE', '09:05', '3. Feb.', '31. Dez. 2025'],
  ])('%s: today as a time, this year as day and month, other years with the year', (locale, time, day, dayYear) => {
    const { formatDate } = localeFormats(locale);
    expect(formatDate(today, now)).toBe(time);
    expect(formatDate(thisYear, now)).toBe(day);
    expect(formatDate(lastYear, now)).toBe(dayYear);
    // Asked again (the formatters are reused), the same answer.
    expect(formatDate(thisYear, now)).toBe(day);
  });
  test('an invalid date is written as nothing', () => {
    expect(localeFormats('en-GB').formatDate(Number.NaN, now)).toBe('');
  });
});

test('today and this year are the local time zone’s: at UTC+14 the same instants fall on other days', () => {
  process.env.TZ = 'Pacific/Kiritimati';
  const { formatDate } = localeFormats('en-GB');
  // 15:00 UTC is 05:00 on 1 December there; 09:05 UTC is 23:05 on 30 November, the day before.
  expect(formatDate(today, now)).toBe('30 Nov');
  // 23:59 UTC on 31 December 2025 is 13:59 on 1 January 2026 there: this year.
  expect(formatDate(lastYear, now)).toBe('1 Jan');
});

test('counts are grouped as the locale groups digits, with the singular for one', () => {
  expect(localeFormats('en-US').plural(1, 'entry', 'entries')).toBe('1 entry');
  expect(localeFormats('en-US').plural(12345, 'entry', 'entries')).toBe('12,345 entries');
  expect(localeFormats('de-DE').plural(12345, 'entry', 'entries')).toBe('12.345 entries');
  expect(localeFormats('en-GB').plural(0, 'file')).toBe('0 files');
});
