import { DEFAULT_ACCENT_COLOR } from '../../../shared/schemas/teams';
import { sql } from 'drizzle-orm';
import { check, customType, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { TEAM_ROLES } from '../../../shared/domain/access';
import { user } from './auth';

export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * A broker's team: the people who work its loans, and the brand its borrowers
 * see. The logo is small (size-limited at upload) and lives in the row; its
 * SHA-256 names the version in the logo's public, immutable URL.
 */
export const team = pgTable(
  'team',
  {
    id: uuid().primaryKey().defaultRandom(),
    name: text().notNull(),
    accentColor: text().notNull().default(DEFAULT_ACCENT_COLOR),
    logo: bytea(),
    logoType: text(),
    logoSha256: text(),
    /** DSCR bands, in hundredths: Strong at or above 125 (1.25), Eligible at or above 100 (1.00). */
    dscrStrongCenti: integer().notNull().default(125),
    dscrEligibleCenti: integer().notNull().default(100),
    /** The IANA time zone reminders keep office hours and weekdays in. */
    timeZone: text().notNull().default('America/New_York'),
    createdBy: text().references(() => user.id, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true })
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (t) => [
    check('team_accent_color_check', sql`${t.accentColor} ~ '^#[0-9a-f]{6}$'`),
    check('team_dscr_thresholds_check', sql`${t.dscrEligibleCenti} > 0 and ${t.dscrEligibleCenti} <= ${t.dscrStrongCenti}`),
    check('team_logo_check', sql`(${t.logo} is null) = (${t.logoType} is null) and (${t.logo} is null) = (${t.logoSha256} is null)`),
  ],
);
export type Team = typeof team.$inferSelect;

/** A person's place in a team. One team per person: the unique index on user_id says so. */
export const teamMember = pgTable(
  'team_member',
  {
    teamId: uuid()
      .notNull()
      .references(() => team.id, { onDelete: 'cascade' }),
    userId: text()
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    role: text({ enum: TEAM_ROLES }).notNull(),
    /** The member's work phone, shown to the borrowers of loans assigned to them. */
    phone: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.teamId, t.userId] }),
    uniqueIndex('team_member_user_key').on(t.userId),
    check('team_member_role_check', sql`${t.role} in ('owner', 'assistant')`),
  ],
);
export type TeamMember = typeof teamMember.$inferSelect;

/** Brokers invited to the platform: each may found one team (and then owns it). */
export const broker = pgTable('broker', {
  userId: text()
    .primaryKey()
    .references(() => user.id, { onDelete: 'cascade' }),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
