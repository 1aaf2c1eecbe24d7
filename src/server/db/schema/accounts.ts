import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { loan } from './loans';
import { user } from './auth';
import { team } from './teams';

/** People who run the platform: they see the waitlist and all teams' metadata. */
export const platformAdmin = pgTable('platform_admin', {
  userId: text()
    .primaryKey()
    .references(() => user.id, { onDelete: 'cascade' }),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

export const INVITATION_ROLES = ['platform_admin', 'broker', 'assistant', 'borrower', 'co_borrower'] as const;
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
    /** The team an assistant joins; only team invitations have one. */
    teamId: uuid().references(() => team.id, { onDelete: 'cascade' }),
    /** The loan a borrower or co-borrower joins (with its team, whose branding the mail carries). */
    loanId: uuid().references((): AnyPgColumn => loan.id, { onDelete: 'cascade' }),
    tokenHash: text().notNull().unique('invitation_token_hash_key'),
    invitedBy: text().references(() => user.id, { onDelete: 'set null' }),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    acceptedAt: timestamp({ withTimezone: true }),
    acceptedBy: text().references(() => user.id, { onDelete: 'set null' }),
    /** Withdrawn by the team before it was used. */
    revokedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('invitation_email_idx').on(sql`lower(${t.email})`),
    index('invitation_team_id_idx').on(t.teamId),
    index('invitation_loan_id_idx').on(t.loanId),
    check('invitation_role_check', sql`${t.role} in ('platform_admin', 'broker', 'assistant', 'borrower', 'co_borrower')`),
    check('invitation_team_check', sql`(${t.role} in ('assistant', 'borrower', 'co_borrower')) = (${t.teamId} is not null)`),
    check('invitation_loan_check', sql`(${t.role} in ('borrower', 'co_borrower')) = (${t.loanId} is not null)`),
  ],
);

export type Invitation = typeof invitation.$inferSelect;
