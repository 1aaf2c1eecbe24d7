import { formatPropertyAddress } from '../../shared/domain/loan-fields';
import { isReminderDue, isOfficeHours, localClock, nextReminderOn } from '../../shared/domain/reminders';
import type { RemindersView, SentReminders } from '../../shared/schemas/reminders';
import { AppError } from '../../shared/errors';
import { findTeam } from '../accounts/accounts.queries';
import { recordActivity } from '../activity/activity-log';
import type { Db } from '../db/client';
import type { ChecklistItemRow } from '../db/schema';
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

type Deps = { db: Db; config: NotifyConfig };

/** "Send one now" refuses a second within this long: a double click sends one. */
export const SEND_NOW_GAP_MS = 60_000;

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

export async function remindersView(db: Db, loanId: string): Promise<RemindersView> {
  const loan = await q.findLoanForReminders(db, loanId);
  if (!loan) throw new AppError('not_found', 'This loan does not exist');
  const [owed, people, last] = await Promise.all([q.owedBorrowerItems(db, loanId), q.borrowersOf(db, loanId), q.lastReminderOf(db, loanId)]);
  return {
    enabled: loan.remindersEnabled,
    timeZone: loan.timeZone,
    lastRemindedAt: last?.toISOString() ?? null,
    recipients: owed.length > 0 ? people.length : 0,
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
  return remindersView(deps.db, loanId);
}
