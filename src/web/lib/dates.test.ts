import { describe, expect, it } from 'vitest';
import { formatCalendarDate, formatMoment, formatRelativeMoment, todayCalendarDate } from './dates';

describe('dates', () => {
  it('writes a calendar day as that day, medium or long', () => {
    expect(formatCalendarDate('2025-03-14')).toBe('Mar 14, 2025');
    expect(formatCalendarDate('2025-06-30', 'long')).toBe('June 30, 2025');
    expect(formatCalendarDate('2025-01-01')).toBe('Jan 1, 2025');
  });

  it('writes a moment with its date, and its time when asked', () => {
    const iso = new Date(2025, 0, 7, 15, 4, 5).toISOString();
    expect(formatMoment(iso)).toBe('Jan 7, 2025');
    expect(formatMoment(iso, 'dateTime')).toBe('Jan 7, 2025, 3:04 PM');
    expect(formatMoment(iso, 'precise')).toBe('Jan 7, 2025, 3:04:05 PM');
  });

  it("gives today's calendar day where the viewer is, padded", () => {
    expect(todayCalendarDate(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
    expect(todayCalendarDate(new Date(2026, 10, 24, 0, 1))).toBe('2026-11-24');
  });

  it('says how long ago a moment was, then its date from a week back', () => {
    const now = new Date(2026, 0, 20, 12, 0, 0);
    const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000).toISOString();
    expect(formatRelativeMoment(ago(10), now)).toBe('just now');
    expect(formatRelativeMoment(ago(5 * 60), now)).toBe('5 minutes ago');
    expect(formatRelativeMoment(ago(3 * 3600), now)).toBe('3 hours ago');
    expect(formatRelativeMoment(ago(26 * 3600), now)).toBe('yesterday');
    expect(formatRelativeMoment(ago(3 * 86400), now)).toBe('3 days ago');
    expect(formatRelativeMoment(ago(9 * 86400), now)).toBe('Jan 11, 2026');
  });
});
