import { bigserial, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * The audit log: who did what, when, from where. Append-only — a trigger
 * (migration 0005) refuses UPDATE, DELETE and TRUNCATE — so it holds no
 * foreign keys: a row outlives the account or team it names, and keeps the
 * e-mail addresses as they were at the time.
 */
export const auditEvent = pgTable(
  'audit_event',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
    action: text().notNull(),
    actorId: text(),
    actorEmail: text(),
    /** The team whose owners see this row; null for platform-only events. */
    teamId: uuid(),
    subjectId: text(),
    subjectEmail: text(),
    ip: text(),
    userAgent: text(),
    data: jsonb().$type<Record<string, string | number | boolean | null>>().notNull().default({}),
  },
  (t) => [index('audit_event_team_id_idx').on(t.teamId, t.id), index('audit_event_at_idx').on(t.at)],
);
export type AuditEventRow = typeof auditEvent.$inferSelect;
