import { and, asc, eq, gt, inArray, isNull, notInArray, sql } from 'drizzle-orm';
import { EXIT_STAGES } from '../../shared/domain/loan-stages';
import { OWED_STATUSES } from '../../shared/domain/reminders';
import type { Db } from '../db/client';
import { activity, checklistItem, loan, loanParticipant, team, user } from '../db/schema';

/** Loans whose documents are no longer chased: funded, or exited. */
const CLOSED_STAGES = ['funded', ...EXIT_STAGES] as const;

/** Items the loan's borrowers owe: theirs to provide, shown to them, and still owed. Internal and third-party items never are. */
const owedByBorrowers = and(eq(checklistItem.provider, 'borrower'), eq(checklistItem.borrowerVisible, true), inArray(checklistItem.status, [...OWED_STATUSES]));

export interface LoanToRemind {
  id: string;
  timeZone: string;
}

/**
 * The next `limit` loans after `afterId` (by id) whose reminders run on
 * schedule: turned on, open (not archived, funded or exited), with something
 * their borrowers owe and a borrower to owe it.
 */
export async function loansToRemind(db: Db, afterId: string | null, limit: number): Promise<LoanToRemind[]> {
  return db
    .select({ id: loan.id, timeZone: team.timeZone })
    .from(loan)
    .innerJoin(team, eq(team.id, loan.teamId))
    .where(
      and(
        eq(loan.remindersEnabled, true),
        isNull(loan.archivedAt),
        notInArray(loan.stage, [...CLOSED_STAGES]),
        afterId ? gt(loan.id, afterId) : undefined,
        sql`exists (select 1 from ${checklistItem} where ${checklistItem.loanId} = ${loan.id} and ${owedByBorrowers})`,
        sql`exists (select 1 from ${loanParticipant} where ${loanParticipant.loanId} = ${loan.id})`,
      ),
    )
    .orderBy(asc(loan.id))
    .limit(limit);
}

/** One writer of a loan's reminders at a time (two instances, a job run twice, a double click), until the transaction ends. */
export async function lockLoanReminders(tx: Db, loanId: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`coverly.reminders.${loanId}`}))`);
}

export async function findLoanForReminders(db: Db, loanId: string) {
  const [row] = await db
    .select({
      id: loan.id,
      teamId: loan.teamId,
      remindersEnabled: loan.remindersEnabled,
      stage: loan.stage,
      archivedAt: loan.archivedAt,
      propertyStreet: loan.propertyStreet,
      propertyUnit: loan.propertyUnit,
      propertyCity: loan.propertyCity,
      propertyState: loan.propertyState,
      propertyZip: loan.propertyZip,
      timeZone: team.timeZone,
    })
    .from(loan)
    .innerJoin(team, eq(team.id, loan.teamId))
    .where(eq(loan.id, loanId));
  return row;
}
export type LoanForReminders = NonNullable<Awaited<ReturnType<typeof findLoanForReminders>>>;

export const isClosedForReminders = (row: Pick<LoanForReminders, 'stage' | 'archivedAt'>) =>
  row.archivedAt !== null || (CLOSED_STAGES as readonly string[]).includes(row.stage);

export async function owedBorrowerItems(db: Db, loanId: string) {
  return db
    .select()
    .from(checklistItem)
    .where(and(eq(checklistItem.loanId, loanId), owedByBorrowers))
    .orderBy(asc(checklistItem.position));
}

/** The loan's borrowers and co-borrowers (every participant has an account). */
export async function borrowersOf(db: Db, loanId: string) {
  return db
    .select({ userId: user.id, name: user.name, email: user.email })
    .from(loanParticipant)
    .innerJoin(user, eq(user.id, loanParticipant.userId))
    .where(eq(loanParticipant.loanId, loanId))
    .orderBy(asc(loanParticipant.createdAt));
}

/**
 * Counts a reminder of one item, if nobody has since `seen` (its count as
 * read; every reminder moves it): a conditional update, so two instances or a job
 * run twice never count one reminder twice. `notSince`: refuse an item
 * reminded after that moment (a second "send now" within a minute).
 * Returns whether it was this caller's.
 */
export async function claimItemReminder(
  tx: Db,
  item: { id: string; remindersSent: number },
  at: Date,
  { notSince }: { notSince?: Date } = {},
): Promise<boolean> {
  const rows = await tx
    .update(checklistItem)
    .set({ remindersSent: sql`${checklistItem.remindersSent} + 1`, lastRemindedAt: at })
    .where(
      and(
        eq(checklistItem.id, item.id),
        eq(checklistItem.remindersSent, item.remindersSent),
        owedByBorrowers,
        notSince ? sql`(${checklistItem.lastRemindedAt} is null or ${checklistItem.lastRemindedAt} < ${notSince})` : undefined,
      ),
    )
    .returning({ id: checklistItem.id });
  return rows.length === 1;
}

export async function setRemindersEnabled(tx: Db, loanId: string, enabled: boolean) {
  await tx.update(loan).set({ remindersEnabled: enabled }).where(eq(loan.id, loanId));
}

/** When a reminder sent by hand went: the sender's clock, kept in the row (the row's own time for rows written before it was). */
const sentNowAt = sql<Date>`coalesce((${activity.data}->>'at')::timestamptz, ${activity.at})`.mapWith((value: string | Date) => new Date(value));

/** The moments the loan's reminders were sent by hand ("Send reminder now") after `since` and up to `until`, oldest first. */
export async function sentNowBetween(db: Db, loanId: string, since: Date, until: Date): Promise<Date[]> {
  const rows = await db
    .select({ at: sentNowAt })
    .from(activity)
    .where(
      and(
        eq(activity.loanId, loanId),
        eq(activity.kind, 'reminder.sent'),
        sql`${activity.data}->>'trigger' = 'now'`,
        sql`${sentNowAt} > ${since.toISOString()}::timestamptz`,
        sql`${sentNowAt} <= ${until.toISOString()}::timestamptz`,
      ),
    )
    .orderBy(asc(sentNowAt));
  return rows.map((row) => row.at);
}

/** The latest reminder of any of the loan's items. */
export async function lastReminderOf(db: Db, loanId: string): Promise<Date | null> {
  const [row] = await db
    .select({ at: sql<Date | null>`max(${checklistItem.lastRemindedAt})`.mapWith((value: string | Date | null) => (value ? new Date(value) : null)) })
    .from(checklistItem)
    .where(eq(checklistItem.loanId, loanId));
  return row?.at ?? null;
}
