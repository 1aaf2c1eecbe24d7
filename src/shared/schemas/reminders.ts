import { z } from 'zod';
import { isTimeZone, type NextLoanReminder } from '../domain/reminders';
import { text } from './text';

/** PUT /api/loans/:loanId/reminders: the loan's reminders on or off. */
export const SetRemindersSchema = z.strictObject({
  enabled: z.boolean({ error: 'enabled must be true or false' }),
});
export type SetReminders = z.infer<typeof SetRemindersSchema>;

/** A team's time zone: an IANA name such as America/Chicago. */
export const TimeZoneSchema = text('Time zone')
  .trim()
  .min(1, { error: 'Time zone is required' })
  .max(64, { error: 'Time zone must be at most 64 characters' })
  .refine(isTimeZone, { error: 'Choose a time zone such as America/Chicago' });

/** An owed item as the team's reminder panel lists it. */
export interface OwedItemView {
  itemId: string;
  label: string;
  dueDate: string | null;
  remindersSent: number;
  lastRemindedAt: string | null;
  /** The local date (team's zone) its schedule's next reminder falls on, or null after the last: a day missed (reminders off, no borrower yet) stays in the past until a reminder goes; the loan's `next` says when that is. */
  nextReminderOn: string | null;
}

/** GET (and the answer of PUT) /api/loans/:loanId/reminders: for the team only. */
export interface RemindersView {
  enabled: boolean;
  timeZone: string;
  /** The loan's latest reminder, scheduled or sent by hand. */
  lastRemindedAt: string | null;
  /** How many people with an account owe documents (the loan's borrowers, when any item is owed by them). */
  recipients: number;
  owed: OwedItemView[];
  /** When the loan's next scheduled reminder goes (today or later, in the team's zone), or why none will (`nextLoanReminder`). */
  next: NextLoanReminder;
  /** "Send reminder now": at most `perDay` in any 24 hours per loan; `nextAt` is when the next may go once they are used up (null: now). */
  sendNow: { perDay: number; sentInLastDay: number; nextAt: string | null };
}

/** POST /api/loans/:loanId/reminders/send. */
export interface SentReminders {
  /** People mailed. */
  people: number;
  /** Owed items listed. */
  items: number;
}
