import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';

export const WAITLIST_STATUSES = ['new', 'invited'] as const;

/** One person who asked for early access. E-mail is unique whatever its letter case. */
export const waitlistEntry = pgTable(
  'waitlist_entry',
  {
    id: uuid().primaryKey().defaultRandom(),
    fullName: text().notNull(),
    email: text().notNull(),
    /** lower(email): the key that makes an address unique whatever its letter case. */
    emailKey: text()
      .notNull()
      .generatedAlwaysAs(sql`lower(email)`),
    phone: text(),
    company: text(),
    status: text({ enum: WAITLIST_STATUSES }).notNull().default('new'),
    submissions: integer().notNull().default(1),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    invitedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    unique('waitlist_entry_email_key').on(t.emailKey),
    index('waitlist_entry_created_at_idx').on(t.createdAt),
    check('waitlist_entry_status_check', sql`${t.status} in ('new', 'invited')`),
  ],
);

export type WaitlistEntry = typeof waitlistEntry.$inferSelect;
