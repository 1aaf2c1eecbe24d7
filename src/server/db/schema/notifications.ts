import { sql } from 'drizzle-orm';
import { bigserial, boolean, check, index, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { NOTICE_AUDIENCES, NOTIFICATION_KINDS } from '../../../shared/domain/notifications';
import { user } from './auth';
import { comment } from './conversation';
import { loan } from './loans';

const inList = (values: readonly string[]) => sql.raw(values.map((value) => `'${value}'`).join(', '));

/**
 * A row of a person's in-app inbox. Written through the outbox's transaction
 * with the action that caused it (never blocking it); `read_at` is set when
 * they open it or mark it read. `data` holds what the row shows and where it
 * links (loan, item, comment), never a secret. `dedup_key`: a notice that is
 * the same one again (a loan's reminder to a person on one day) replaces its
 * row instead of adding a second (`notify`).
 *
 * `audience` (for a row about a loan, and only then): whom it was written
 * for, the loan's team or everyone on it; the row shows only while its person
 * may read that audience on the loan now. `comment_id`: a row about a comment
 * quotes it as it is when the inbox is read (its current text, or that it was
 * deleted), so no row keeps a comment's text.
 */
export const notification = pgTable(
  'notification',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    userId: text()
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    kind: text({ enum: NOTIFICATION_KINDS }).notNull(),
    loanId: uuid().references(() => loan.id, { onDelete: 'cascade' }),
    data: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    readAt: timestamp({ withTimezone: true }),
    dedupKey: text(),
    audience: text({ enum: NOTICE_AUDIENCES }),
    commentId: uuid().references(() => comment.id, { onDelete: 'cascade' }),
  },
  (t) => [
    index('notification_user_idx').on(t.userId, t.id),
    uniqueIndex('notification_dedup_idx')
      .on(t.userId, t.dedupKey)
      .where(sql`${t.dedupKey} is not null`),
    index('notification_unread_idx')
      .on(t.userId)
      .where(sql`${t.readAt} is null`),
    index('notification_comment_idx')
      .on(t.commentId)
      .where(sql`${t.commentId} is not null`),
    check('notification_kind_check', sql`${t.kind} in (${inList(NOTIFICATION_KINDS)})`),
    check('notification_audience_check', sql`${t.audience} in (${inList(NOTICE_AUDIENCES)})`),
    // A row about a loan says whom it is for; a row about none (an invitation) has nobody to check.
    check('notification_loan_audience_check', sql`(${t.loanId} is null) = (${t.audience} is null)`),
  ],
);
export type NotificationRow = typeof notification.$inferSelect;

/** A person's choice for one kind: e-mail too (the default, when no row exists) or in-app only. */
export const notificationPreference = pgTable(
  'notification_preference',
  {
    userId: text()
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    kind: text({ enum: NOTIFICATION_KINDS }).notNull(),
    email: boolean().notNull(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind] }), check('notification_preference_kind_check', sql`${t.kind} in (${inList(NOTIFICATION_KINDS)})`)],
);
