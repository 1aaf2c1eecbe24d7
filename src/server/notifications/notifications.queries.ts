import { and, desc, eq, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { NOTIFICATION_KINDS, type NotificationKind } from '../../shared/domain/notifications';
import type { Db } from '../db/client';
import { loan, loanParticipant, notification, notificationPreference, teamMember, user } from '../db/schema';

/**
 * Adds a row to a person's inbox. With `dedupKey`, a row of theirs with the
 * same key is replaced instead: its text refreshed, unread again, and moved
 * to the top (a new id), so the same notice never shows twice.
 */
export async function insertNotification(
  db: Db,
  values: { userId: string; kind: NotificationKind; loanId: string | null; data: Record<string, unknown>; dedupKey?: string | undefined },
) {
  const insert = db.insert(notification).values(values);
  if (!values.dedupKey) {
    await insert;
    return;
  }
  await insert.onConflictDoUpdate({
    target: [notification.userId, notification.dedupKey],
    targetWhere: sql`${notification.dedupKey} is not null`,
    set: { id: sql`default`, data: sql`excluded.data`, createdAt: sql`now()`, readAt: null },
  });
}

/**
 * The rows a person may still read: those about no loan, or about a loan they
 * still hold a role on (its team's member, or its participant). Someone
 * removed from a loan stops seeing its rows with their next request, as they
 * stop seeing the loan.
 */
const stillOnLoan = (userId: string): SQL =>
  or(
    isNull(notification.loanId),
    sql`exists (select 1 from ${loanParticipant} where ${loanParticipant.loanId} = ${notification.loanId} and ${loanParticipant.userId} = ${userId})`,
    sql`exists (select 1 from ${loan} join ${teamMember} on ${teamMember.teamId} = ${loan.teamId}
                 where ${loan.id} = ${notification.loanId} and ${teamMember.userId} = ${userId})`,
  )!;

export async function listNotifications(db: Db, userId: string, { before, limit }: { before?: number | undefined; limit: number }) {
  const where = [eq(notification.userId, userId), stillOnLoan(userId)];
  if (before) where.push(lt(notification.id, before));
  return db
    .select()
    .from(notification)
    .where(and(...where))
    .orderBy(desc(notification.id))
    .limit(limit + 1);
}

export async function countUnread(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(notification)
    .where(and(eq(notification.userId, userId), isNull(notification.readAt), stillOnLoan(userId)));
  return row?.count ?? 0;
}

/** Marks one of the person's rows read (a row already read keeps its time). Returns whether the row is theirs. */
export async function markRead(db: Db, userId: string, id: number): Promise<boolean> {
  const [row] = await db
    .update(notification)
    .set({ readAt: sql`coalesce(${notification.readAt}, now())` })
    .where(and(eq(notification.id, id), eq(notification.userId, userId)))
    .returning({ id: notification.id });
  return row !== undefined;
}

/** Marks every unread row of the person read; returns how many there were. */
export async function markAllRead(db: Db, userId: string): Promise<number> {
  const rows = await db
    .update(notification)
    .set({ readAt: sql`now()` })
    .where(and(eq(notification.userId, userId), isNull(notification.readAt)))
    .returning({ id: notification.id });
  return rows.length;
}

/** Whether the person wants `kind` by e-mail: yes unless they chose in-app only. */
export async function emailsKind(db: Db, userId: string, kind: NotificationKind): Promise<boolean> {
  const [row] = await db
    .select({ email: notificationPreference.email })
    .from(notificationPreference)
    .where(and(eq(notificationPreference.userId, userId), eq(notificationPreference.kind, kind)));
  return row?.email ?? true;
}

/** The person's choice for every kind (e-mail when they never chose). */
export async function preferencesOf(db: Db, userId: string): Promise<Record<NotificationKind, boolean>> {
  const rows = await db
    .select({ kind: notificationPreference.kind, email: notificationPreference.email })
    .from(notificationPreference)
    .where(eq(notificationPreference.userId, userId));
  const chosen = new Map(rows.map((row) => [row.kind, row.email]));
  return Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, chosen.get(kind) ?? true])) as Record<NotificationKind, boolean>;
}

/**
 * Sets the person's choice for the kinds given. Only for a person who exists:
 * an unsubscribe token of a deleted account changes nothing. Returns whether
 * they do.
 */
export async function setPreferences(db: Db, userId: string, choices: { kind: NotificationKind; email: boolean }[]): Promise<boolean> {
  const [person] = await db.select({ id: user.id }).from(user).where(eq(user.id, userId));
  if (!person || choices.length === 0) return person !== undefined;
  await db
    .insert(notificationPreference)
    .values(choices.map((choice) => ({ userId, kind: choice.kind, email: choice.email })))
    .onConflictDoUpdate({
      target: [notificationPreference.userId, notificationPreference.kind],
      set: { email: sql`excluded.email`, updatedAt: sql`now()` },
    });
  return true;
}
