import { TEAM_ON_LOAN, type LoanActionTable } from './access';
import type { ItemStatus } from './checklist-status';

/**
 * Reminders for owed documents (issue 17, decision 022): when an item's
 * reminder is due, and when the team's office is open to send it. Pure, so
 * the server's job, its tests and the web all read the same rules.
 */

/** The team may turn a loan's reminders off and on, read them, and send one now. */
export const REMINDER_ACTIONS = {
  'manage-reminders': TEAM_ON_LOAN,
} as const satisfies LoanActionTable;

/** What brokers know from Floify: the day before and the day a due date passes, then every 4 days; at most 5 per item. */
export const REMINDER_POLICY = {
  /** An item without a due date is first reminded this many days after it was requested. */
  daysAfterRequest: 3,
  everyDays: 4,
  maxPerItem: 5,
  /** Office hours in the team's time zone, Monday to Friday: from 8:00 until 18:00. */
  openHour: 8,
  closeHour: 18,
} as const;

/** The tags of an item still owed: never sent, sent back, or no longer valid. */
export const OWED_STATUSES = ['requested', 'needs_revision', 'expired'] as const satisfies readonly ItemStatus[];
export const isOwed = (status: ItemStatus) => (OWED_STATUSES as readonly ItemStatus[]).includes(status);

export const DEFAULT_TIME_ZONE = 'America/New_York';

/** Whether `zone` is an IANA time zone this runtime knows ("America/Chicago", "UTC"). */
export function isTimeZone(zone: string): boolean {
  if (zone.length === 0 || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The IANA zones to choose from (the runtime's list, with UTC). */
export function timeZoneChoices(): string[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [DEFAULT_TIME_ZONE];
  return zones.includes('UTC') ? zones : ['UTC', ...zones];
}

export interface LocalClock {
  /** The calendar date there, YYYY-MM-DD. */
  date: string;
  /** 1 Monday … 7 Sunday. */
  weekday: number;
  hour: number;
}

const WEEKDAYS: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };
const formats = new Map<string, Intl.DateTimeFormat>();

/** What the clock on the wall says in `zone` at `at`. */
export function localClock(at: Date, zone: string): LocalClock {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      hourCycle: 'h23',
      weekday: 'short',
    });
    formats.set(zone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(at).map((part) => [part.type, part.value]));
  return { date: `${parts.year}-${parts.month}-${parts.day}`, weekday: WEEKDAYS[parts.weekday ?? ''] ?? 0, hour: Number(parts.hour) };
}

/** Whether reminders may go now in `zone`: a weekday, during office hours. */
export function isOfficeHours(at: Date, zone: string): boolean {
  const { weekday, hour } = localClock(at, zone);
  return weekday >= 1 && weekday <= 5 && hour >= REMINDER_POLICY.openHour && hour < REMINDER_POLICY.closeHour;
}

/** A calendar date (YYYY-MM-DD) moved by `days`. */
export function addDays(date: string, days: number): string {
  const moved = new Date(`${date}T00:00:00Z`);
  moved.setUTCDate(moved.getUTCDate() + days);
  return moved.toISOString().slice(0, 10);
}

export interface ItemReminderState {
  dueDate: string | null;
  /** The local date it was (last) asked for. */
  requestedOn: string;
  remindersSent: number;
  /** The local date of its last reminder, if any since it was asked for. */
  lastRemindedOn: string | null;
}

/**
 * The item's schedule: with a due date D, the days D−1, D, then D+4, D+8…;
 * without, 3 days after it was asked for, then every 4 days.
 */
function schedulePoint(state: Pick<ItemReminderState, 'dueDate' | 'requestedOn'>, n: number): string {
  const { daysAfterRequest, everyDays } = REMINDER_POLICY;
  if (state.dueDate) return n === 0 ? addDays(state.dueDate, -1) : addDays(state.dueDate, (n - 1) * everyDays);
  return addDays(state.requestedOn, daysAfterRequest + n * everyDays);
}

/**
 * The first day of its schedule after `after`: the next reminder's day.
 * Days missed (a weekend, a night, a loan with reminders off) fold into one
 * reminder, never several on one day.
 */
export function nextScheduledDay(state: Pick<ItemReminderState, 'dueDate' | 'requestedOn'>, after: string): string {
  for (let n = 0; ; n++) {
    const day = schedulePoint(state, n);
    if (day > after) return day;
  }
}

/**
 * When the item's next reminder is due (a local date), or null when it has
 * had its five. Nothing is due on the day it was asked for (the "documents
 * requested" mail says it) nor twice on one day.
 */
export function nextReminderOn(state: ItemReminderState): string | null {
  if (state.remindersSent >= REMINDER_POLICY.maxPerItem) return null;
  const after = state.lastRemindedOn && state.lastRemindedOn > state.requestedOn ? state.lastRemindedOn : state.requestedOn;
  return nextScheduledDay(state, after);
}

/** Whether the item's reminder is due on `today` (a local date). */
export function isReminderDue(state: ItemReminderState, today: string): boolean {
  const next = nextReminderOn(state);
  return next !== null && next <= today;
}

/**
 * How many days an item is overdue on `today` (a local date): its due date
 * has passed and it is still owed. Null when it is not overdue: no due date,
 * not yet due, or no longer owed (sent, approved, waived…).
 */
export function daysOverdue(item: { dueDate: string | null; status: ItemStatus }, today: string): number | null {
  if (!item.dueDate || item.dueDate >= today || !isOwed(item.status)) return null;
  return Math.round((Date.parse(`${today}T00:00:00Z`) - Date.parse(`${item.dueDate}T00:00:00Z`)) / 86_400_000);
}

/** "1 day overdue", "3 days overdue". */
export const overdueLabel = (days: number) => `${days} ${days === 1 ? 'day' : 'days'} overdue`;

/** Why no reminder will go on a loan: the team turned them off, the loan is closed, nothing is owed, no borrower to mail, or every owed item had its last. */
export type NoReminderReason = 'off' | 'closed' | 'nothing_owed' | 'no_borrower' | 'all_sent';

/**
 * The loan's next scheduled reminder, as its Reminders card says it: the
 * local day it goes (today or later, never a day already past: a day missed
 * goes at the next run), and whether that is the very next run (`soon`:
 * today, inside office hours, the job running every 15 minutes), or why
 * none will go.
 */
export type NextLoanReminder = { kind: 'scheduled'; on: string; soon: boolean } | { kind: 'none'; why: NoReminderReason };

export function nextLoanReminder(
  loan: { enabled: boolean; closed: boolean; recipients: number; owed: readonly ItemReminderState[] },
  now: Date,
  zone: string,
): NextLoanReminder {
  const none = (why: NoReminderReason): NextLoanReminder => ({ kind: 'none', why });
  if (!loan.enabled) return none('off');
  if (loan.closed) return none('closed');
  if (loan.owed.length === 0) return none('nothing_owed');
  if (loan.recipients === 0) return none('no_borrower');
  const due = loan.owed
    .map(nextReminderOn)
    .filter((day): day is string => day !== null)
    .sort()[0];
  if (!due) return none('all_sent');
  const clock = localClock(now, zone);
  let day = due > clock.date ? due : clock.date;
  // Today's office hours are over: the first run tomorrow; then past the weekend.
  if (day === clock.date && clock.hour >= REMINDER_POLICY.closeHour) day = addDays(day, 1);
  const weekday = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();
  while (weekday(day) === 0 || weekday(day) === 6) day = addDays(day, 1);
  return { kind: 'scheduled', on: day, soon: day === clock.date && clock.hour >= REMINDER_POLICY.openHour };
}
