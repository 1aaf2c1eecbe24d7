import { and, desc, eq, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { NOTIFICATION_KINDS, type NoticeAudience, type NotificationKind } from '../../shared/domain/notifications';
import { mayReadOnLoanSql } from '../accounts/loan-audience';
import type { Db } from '../db/client';
import { comment, notification, notificationPreference, user } from '../db/schema';

export interface NewNotification {
  userId: string;
  kind: NotificationKind;
  /** The loan it is about, and whom it was written for there; both null for a row about no loan (an invitation). */
  loanId: string | null;
  audience: NoticeAudience | null;
  data: Record<string, unknown>;
  /** A row about a comment: quoted from the comment whenever the inbox is read, so `data` never holds its text. */
  commentId?: string | undefined;
  dedupKey?: string | undefined;
}

/**
 * Adds a row to a person's inbox. With `dedupKey`, a row of theirs with the
 * same key is replaced instead: its text refreshed, unread again, and moved
 * to the top (a new id), so the same notice never shows twice.
 */
export async function insertNotification(db: Db, values: NewNotification) {
  if ((values.loanId === null) !== (values.audience === null))
    throw new Error('insertNotification: a row about a loan names its audience, and only such a row');
  const insert = db.insert(notification).values(values);
  if (!values.dedupKey) {
    await insert;
    return;
  }
  await insert.onConflictDoUpdate({
    target: [notification.userId, notification.dedupKey],
    targetWhere: sql`${notification.dedupKey} is not null`,
    set: { id: sql`default`, data: sql`excluded.data`, audience: sql`excluded.audience`, createdAt: sql`now()`, readAt: null },
  });
}

/**
 * The rows a person may read now: those about no loan, and those about a loan
 * whose audience their current role there may read (`mayReadOnLoanSql`: the
 * team's rows while they are on its team, the shared ones while they are on
 * the team or a borrower). Someone removed from a loan stops seeing its rows
 * with their next request, as they stop seeing the loan; a team member who
 * becomes a borrower sees the shared rows and never again the team's.
 */
const mayStillRead = (userId: string): SQL => or(isNull(notification.loanId), mayReadOnLoanSql(userId, notification.loanId, notification.audience))!;

/** What a row about a comment quotes of it, read with the row: its text now, and whether it was deleted. */
export interface InboxRow {
  row: typeof notification.$inferSelect;
  quoted: { body: string; deletedAt: Date | null } | null;
}

export async function listNotifications(db: Db, userId: string, { before, limit }: { before?: number | undefined; limit: number }): Promise<InboxRow[]> {
  const where = [eq(notification.userId, userId), mayStillRead(userId)];
  if (before) where.push(lt(notification.id, before));
  const rows = await db
    .select({ row: notification, body: comment.body, deletedAt: comment.deletedAt })
    .from(notification)
    .leftJoin(comment, eq(comment.id, notification.commentId))
    .where(and(...where))
    .orderBy(desc(notification.id))
    .limit(limit + 1);
  return rows.map(({ row, body, deletedAt }) => ({ row, quoted: body === null ? null : { body, deletedAt } }));
}

export async function countUnread(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(notification)
    .where(and(eq(notification.userId, userId), isNull(notification.readAt), mayStillRead(userId)));
  return row?.count ?? 0;
}

/** Marks one of the person's rows read (a row already read keeps its time). Returns whether the row is theirs to read now. */
export async function markRead(db: Db, userId: string, id: number): Promise<boolean> {
  const [row] = await db
    .update(notification)
    .set({ readAt: sql`coalesce(${notification.readAt}, now())` })
    .where(and(eq(notification.id, id), eq(notification.userId, userId), mayStillRead(userId)))
    .returning({ id: notification.id });
  return row !== undefined;
}

/** Marks every unread row the person may read now read; returns how many there were. */
export async function markAllRead(db: Db, userId: string): Promise<number> {
  const rows = await db
    .update(notification)
    .set({ readAt: sql`now()` })
    .where(and(eq(notification.userId, userId), isNull(notification.readAt), mayStillRead(userId)))
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
