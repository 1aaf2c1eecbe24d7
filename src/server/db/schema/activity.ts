import { sql } from 'drizzle-orm';
import { bigserial, check, integer, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { ACTIVITY_VISIBILITIES } from '../../../shared/schemas/loans';
import { user } from './auth';
import { loan } from './loans';

/**
 * What happened on a loan, in order: written in the same transaction as the
 * change it records, through src/server/activity/activity-log.ts only.
 * `seq` numbers a loan's rows 1, 2, 3… in commit order: the writer takes the
 * next number by updating `loan.activity_seq`, which holds the loan's row
 * lock until its transaction ends, so a row with a higher `seq` never becomes
 * visible before a lower one. A reader that asks for "after seq N" therefore
 * never skips a row that commits late (a `bigserial` id is taken at insert,
 * not at commit, so it could). `(loan_id, seq)` is the realtime event id;
 * borrowers count by `shared_seq`, which numbers the shared rows alone.
 * `internal` rows are never shown to borrowers.
 */
export const activity = pgTable(
  'activity',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    loanId: uuid()
      .notNull()
      .references(() => loan.id, { onDelete: 'cascade' }),
    seq: integer().notNull(),
    /** The row's number among the loan's shared rows only (null for internal ones): the borrowers' cursor, so its gaps reveal nothing. */
    sharedSeq: integer(),
    actorId: text().references(() => user.id, { onDelete: 'set null' }),
    kind: text().notNull(),
    data: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    visibility: text({ enum: ACTIVITY_VISIBILITIES }).notNull(),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('activity_loan_seq_key').on(t.loanId, t.seq),
    unique('activity_loan_shared_seq_key').on(t.loanId, t.sharedSeq),
    check('activity_shared_seq_check', sql`(${t.visibility} = 'shared') = (${t.sharedSeq} is not null)`),
    check('activity_visibility_check', sql`${t.visibility} in ('shared', 'internal')`),
  ],
);
export type ActivityRow = typeof activity.$inferSelect;
