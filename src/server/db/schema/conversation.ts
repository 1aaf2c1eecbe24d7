import { sql } from 'drizzle-orm';
import { check, foreignKey, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { COMMENT_VISIBILITIES } from '../../../shared/domain/comments';
import { user } from './auth';
import { checklistItem } from './checklist';
import { loan } from './loans';

const inList = (values: readonly string[]) => sql.raw(values.map((value) => `'${value}'`).join(', '));

/**
 * A comment on a loan's discussion. A top-level comment starts a thread
 * (`parent_id` null); a reply names its thread's first comment (one level of
 * threads) and has its visibility. A comment may be attached to a checklist
 * item. Edits keep the earlier text in the activity; a deleted comment keeps
 * its row (its body emptied, `deleted_at` set) so its replies stay.
 * `activity_seq` and `shared_activity_seq` are the cursors of the activity
 * row that posted it: unread counts compare them with the reader's cursor.
 */
export const comment = pgTable(
  'comment',
  {
    id: uuid().primaryKey().defaultRandom(),
    loanId: uuid()
      .notNull()
      .references(() => loan.id, { onDelete: 'cascade' }),
    parentId: uuid(),
    itemId: uuid().references(() => checklistItem.id, { onDelete: 'set null' }),
    visibility: text({ enum: COMMENT_VISIBILITIES }).notNull(),
    authorId: text().references(() => user.id, { onDelete: 'set null' }),
    body: text().notNull(),
    /** The ids of the people it @mentions (each on the loan and able to see it). */
    mentions: jsonb().$type<string[]>().notNull().default([]),
    activitySeq: integer().notNull(),
    sharedActivitySeq: integer(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    editedAt: timestamp({ withTimezone: true }),
    deletedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    foreignKey({ columns: [t.parentId], foreignColumns: [t.id], name: 'comment_parent_fk' }).onDelete('cascade'),
    index('comment_loan_idx').on(t.loanId, t.activitySeq),
    index('comment_parent_idx').on(t.parentId),
    index('comment_item_idx').on(t.itemId),
    check('comment_visibility_check', sql`${t.visibility} in (${inList(COMMENT_VISIBILITIES)})`),
    check('comment_shared_seq_check', sql`(${t.visibility} = 'shared') = (${t.sharedActivitySeq} is not null)`),
  ],
);
export type CommentRow = typeof comment.$inferSelect;

/**
 * How far a person has read a loan: the cursor of their audience (the team's
 * `seq`, a borrower's `shared_seq`), moved by the loan page while it is
 * visible to them. Unread markers and "no e-mail for what was seen" read it.
 */
export const loanReadCursor = pgTable(
  'loan_read_cursor',
  {
    userId: text()
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    loanId: uuid()
      .notNull()
      .references(() => loan.id, { onDelete: 'cascade' }),
    cursor: integer().notNull().default(0),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.loanId] }), index('loan_read_cursor_loan_idx').on(t.loanId)],
);
