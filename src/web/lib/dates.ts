/**
 * Dates have one home: calendar days (a loan's target closing, stored as
 * YYYY-MM-DD) and moments (ISO timestamps, shown in the viewer's time zone)
 * are written for people here. Only the signed-in app shows dates, so Intl is
 * fine here (the public calculator formats money by hand, see shared/money.ts).
 */

const CALENDAR_DAY = {
  /** "Mar 14, 2025": tables and lists. */
  medium: new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }),
  /** "March 14, 2025": a loan's details. */
  long: new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }),
};

/** A calendar day (YYYY-MM-DD) in words, read as that day wherever the viewer is: "Mar 14, 2025" or "March 14, 2025". */
export function formatCalendarDate(day: string, style: keyof typeof CALENDAR_DAY = 'medium'): string {
  const [year, month, date] = day.split('-').map(Number);
  return CALENDAR_DAY[style].format(new Date(Date.UTC(year ?? 2000, (month ?? 1) - 1, date ?? 1)));
}

const MOMENT = {
  date: new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' }),
  dateTime: new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }),
  precise: new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'medium' }),
};

export type MomentFormat = keyof typeof MOMENT;

/** A moment in the viewer's time zone: "Jan 7, 2025" (date), "Jan 7, 2025, 3:04 PM" (dateTime) or with seconds (precise). */
export function formatMoment(iso: string, format: MomentFormat = 'date'): string {
  return MOMENT[format].format(new Date(iso));
}

/** Today as a calendar day (YYYY-MM-DD) where the viewer is: the default of a date someone is asked for. */
export function todayCalendarDate(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

const RELATIVE = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto' });
const RELATIVE_STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 7],
];

/**
 * How long ago a moment was, for a conversation: "just now", "5 minutes ago",
 * "yesterday", "3 days ago"; from a week back the date itself ("Jan 7, 2025").
 */
export function formatRelativeMoment(iso: string, now: Date = new Date()): string {
  const then = new Date(iso);
  let amount = (then.getTime() - now.getTime()) / 1000;
  if (Math.abs(amount) < 45) return 'just now';
  for (const [unit, size] of RELATIVE_STEPS) {
    if (Math.abs(amount) < size) return RELATIVE.format(Math.round(amount), unit);
    amount /= size;
  }
  return formatMoment(iso, 'date');
}
