import { describe, expect, it } from 'vitest';
import { formatCalendarDate, formatMoment, todayCalendarDate } from './dates';

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
});
