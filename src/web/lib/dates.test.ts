import { describe, expect, it } from 'vitest';
import { formatCalendarDate, formatMoment } from './dates';

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
});
