import { formatPropertyAddress } from '../../shared/domain/loan-fields';
import { isReminderDue, isOfficeHours, localClock, nextLoanReminder, nextReminderOn } from '../../shared/domain/reminders';
import type { RemindersView, SentReminders } from '../../shared/schemas/reminders';
import { AppError } from '../../shared/errors';
import { findTeam } from '../accounts/accounts.queries';
import { recordActivity } from '../activity/activity-log';
import type { Db } from '../db/client';
import type { ChecklistItemRow } from '../db/schema';
import type { Config } from '../config';
import type { NotifyConfig } from '../notifications/notify';
import { teamMailBrand } from '../teams/team-brand';
import * as q from './reminders.queries';
import { queueReminderMail } from './reminder-mail';

/*
 * Reminders for owed documents (decision 022). A loan's reminder is one
 * transaction: the loan's reminder lock, the items counted by conditional
 * updates, one mail per borrower listing everything they owe on the loan,
 * and an internal activity row, so the count, the mail and the record exist
 * together or not at all.
 */

type Deps = { db: Db; config: NotifyConfig & Pick<Config, 'remindersSentNowPerDay'> };

/** "Send one now" refuses a second within this long: a double click sends one. */
export const SEND_NOW_GAP_MS = 60_000;
const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** The window of REMINDERS_SENT_NOW_PER_DAY: any 24 hours, rolling. */
const DAY_MS = 24 * 60 * 60_000;

/** When "Send reminder now" may next go on the loan (null: now), and how many went in the 24 hours before `now`. */
async function sendNowAllowance(db: Db, loanId: string, perDay: number, now: Date) {
  const sent = await q.sentNowBetween(db, loanId, new Date(now.getTime() - DAY_MS), now);
  // The next may go once the oldest of the last `perDay` is 24 hours old.
  const nextAt = sent.length >= perDay ? new Date(sent[sent.length - perDay]!.getTime() + DAY_MS) : null;
  return { perDay, sentInLastDay: sent.length, nextAt };
}

/** "Sun, Nov 29, 3:15 PM EST": a moment as the team's clock reads it. */
const teamTime = (at: Date, zone: string) =>
  new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  }).format(at);

const stateOf = (item: ChecklistItemRow, zone: string) => ({
  dueDate: item.dueDate,
  requestedOn: localClock(item.requestedAt, zone).date,
  remindersSent: item.remindersSent,
  lastRemindedOn: item.lastRemindedAt ? localClock(item.lastRemindedAt, zone).date : null,
});

export type ReminderTrigger = { kind: 'schedule' } | { kind: 'now'; by: string };

/**
 * Reminds the loan's borrowers of what they owe, as `trigger` asks: on
 * schedule, only when an item's reminder is due (and the loan's reminders
 * are on, the loan open); now, of everything owed, once a minute at most.
 * Returns who was mailed about how many items (none when nothing was due).
 */
export async function remindLoan(deps: Deps, loanId: string, trigger: ReminderTrigger, now: Date): Promise<SentReminders> {
  return deps.db.transaction(async (tx) => {
    await q.lockLoanReminders(tx, loanId);
    const loan = await q.findLoanForReminders(tx, loanId);
    if (!loan) throw new AppError('not_found', 'This loan does not exist');
    const scheduled = trigger.kind === 'schedule';
    if (scheduled && (!loan.remindersEnabled || q.isClosedForReminders(loan))) return { people: 0, items: 0 };
    const [owed, people] = await Promise.all([q.owedBorrowerItems(tx, loanId), q.borrowersOf(tx, loanId)]);
    if (!scheduled && owed.length === 0) throw new AppError('conflict', 'The borrowers owe no documents on this loan.');
    if (!scheduled && people.length === 0) throw new AppError('conflict', 'No borrower has joined this loan yet: invite one first.');
    if (!scheduled) {
      // Each press mails every borrower who owes: a few a day per loan, counted under the loan's reminder lock.
      const allowance = await sendNowAllowance(tx, loanId, deps.config.remindersSentNowPerDay, now);
      if (allowance.nextAt) {
        throw new AppError(
          'rate_limited',
          `Reminder limit reached: ${plural(allowance.perDay, 'reminder')} sent by hand on this loan in the last 24 hours, the most allowed. The next can be sent from ${teamTime(allowance.nextAt, loan.timeZone)}.`,
          undefined,
          { retryAfterSeconds: Math.max(1, Math.ceil((allowance.nextAt.getTime() - now.getTime()) / 1000)) },
        );
      }
    }
    if (people.length === 0) return { people: 0, items: 0 };

    const today = localClock(now, loan.timeZone).date;
    const due = scheduled ? owed.filter((item) => isReminderDue(stateOf(item, loan.timeZone), today)) : owed;
    const claimed: ChecklistItemRow[] = [];
    for (const item of due) {
      const mine = await q.claimItemReminder(tx, item, now, scheduled ? {} : { notSince: new Date(now.getTime() - SEND_NOW_GAP_MS) });
      if (mine) claimed.push(item);
    }
    if (claimed.length === 0) {
      if (!scheduled) throw new AppError('rate_limited', 'A reminder went to the borrowers less than a minute ago.');
      return { people: 0, items: 0 };
    }

    const team = await findTeam(tx, loan.teamId);
    if (!team) throw new AppError('not_found', 'This loan does not exist');
    const brand = teamMailBrand(team, deps.config.publicUrl);
    const property = formatPropertyAddress(loan);
    // Everything they owe on the loan, not only what fell due today: one mail says it all.
    const items = owed.map((item) => ({ label: item.label, status: item.status, dueDate: item.dueDate }));
    for (const person of people) {
      await queueReminderMail(tx, { to: person, loan: { id: loan.id, property }, items, brand, today }, deps.config);
    }
    await recordActivity(tx, loanId, {
      actorId: trigger.kind === 'now' ? trigger.by : null,
      kind: 'reminder.sent',
      visibility: 'internal',
      data: {
        trigger: trigger.kind,
        // The sender's clock (the row's own time is the database's): what the daily limit of sending by hand counts.
        ...(scheduled ? {} : { at: now.toISOString() }),
        recipients: people.map((person) => person.name),
        items: owed.map((item) => ({ itemId: item.id, label: item.label })),
      },
    });
    return { people: people.length, items: owed.length };
  });
}

export interface ReminderRun {
  loans: number;
  mailed: number;
}

/**
 * The scheduled run: every loan whose reminders run, a batch at a time, each
 * in its own transaction (a run cut short keeps what it did; the next run
 * goes on), skipping the teams whose office is closed at `now`.
 */
export async function runReminders(deps: Deps, now: Date, { batchSize = 100 }: { batchSize?: number } = {}): Promise<ReminderRun> {
  const run: ReminderRun = { loans: 0, mailed: 0 };
  let after: string | null = null;
  for (;;) {
    const batch = await q.loansToRemind(deps.db, after, batchSize);
    for (const loan of batch) {
      if (!isOfficeHours(now, loan.timeZone)) continue;
      const sent = await remindLoan(deps, loan.id, { kind: 'schedule' }, now);
      if (sent.people > 0) {
        run.loans += 1;
        run.mailed += sent.people;
      }
    }
    if (batch.length < batchSize) return run;
    after = batch[batch.length - 1]!.id;
  }
}

export async function remindersView(deps: Deps, loanId: string, now = new Date()): Promise<RemindersView> {
  const { db } = deps;
  const loan = await q.findLoanForReminders(db, loanId);
  if (!loan) throw new AppError('not_found', 'This loan does not exist');
  const [owed, people, last, allowance] = await Promise.all([
    q.owedBorrowerItems(db, loanId),
    q.borrowersOf(db, loanId),
    q.lastReminderOf(db, loanId),
    sendNowAllowance(db, loanId, deps.config.remindersSentNowPerDay, now),
  ]);
  const recipients = owed.length > 0 ? people.length : 0;
  const next = nextLoanReminder(
    { enabled: loan.remindersEnabled, closed: q.isClosedForReminders(loan), recipients: people.length, owed: owed.map((item) => stateOf(item, loan.timeZone)) },
    now,
    loan.timeZone,
  );
  return {
    sendNow: { perDay: allowance.perDay, sentInLastDay: allowance.sentInLastDay, nextAt: allowance.nextAt?.toISOString() ?? null },
    enabled: loan.remindersEnabled,
    timeZone: loan.timeZone,
    lastRemindedAt: last?.toISOString() ?? null,
    recipients,
    next,
    owed: owed.map((item) => ({
      itemId: item.id,
      label: item.label,
      dueDate: item.dueDate,
      remindersSent: item.remindersSent,
      lastRemindedAt: item.lastRemindedAt?.toISOString() ?? null,
      nextReminderOn: nextReminderOn(stateOf(item, loan.timeZone)),
    })),
  };
}

/** Turns the loan's scheduled reminders on or off, with an internal activity row when it changes. */
export async function setReminders(deps: Deps, by: string, loanId: string, enabled: boolean): Promise<RemindersView> {
  await deps.db.transaction(async (tx) => {
    await q.lockLoanReminders(tx, loanId);
    const loan = await q.findLoanForReminders(tx, loanId);
    if (!loan) throw new AppError('not_found', 'This loan does not exist');
    if (loan.remindersEnabled === enabled) return;
    await q.setRemindersEnabled(tx, loanId, enabled);
    await recordActivity(tx, loanId, { actorId: by, kind: enabled ? 'reminders.turned_on' : 'reminders.turned_off', visibility: 'internal' });
  });
  return remindersView(deps, loanId);
}
