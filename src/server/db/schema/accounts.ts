import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { user } from './auth';

/** People who run the platform: they see the waitlist and all teams' metadata. */
export const platformAdmin = pgTable('platform_admin', {
  userId: text()
    .primaryKey()
    .references(() => user.id, { onDelete: 'cascade' }),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

export const INVITATION_ROLES = ['platform_admin', 'broker'] as const;
export type InvitationRole = (typeof INVITATION_ROLES)[number];

/**
 * A single-use, expiring invitation. Only the SHA-256 of the token is stored;
 * the token itself exists only in the link that was mailed.
 */
export const invitation = pgTable(
  'invitation',
  {
    id: uuid().primaryKey().defaultRandom(),
    email: text().notNull(),
    role: text({ enum: INVITATION_ROLES }).notNull(),
    tokenHash: text().notNull().unique('invitation_token_hash_key'),
    invitedBy: text().references(() => user.id, { onDelete: 'set null' }),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    acceptedAt: timestamp({ withTimezone: true }),
    acceptedBy: text().references(() => user.id, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('invitation_email_idx').on(sql`lower(${t.email})`), check('invitation_role_check', sql`${t.role} in ('platform_admin', 'broker')`)],
);

export type Invitation = typeof invitation.$inferSelect;
