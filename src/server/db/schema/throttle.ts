import { index, pgTable, text, timestamp, bigserial } from 'drizzle-orm/pg-core';

/**
 * Recent sensitive attempts (failed sign-ins, password-reset requests), keyed
 * by what they target ("sign-in:email:…", "sign-in:ip:…"). Kept in the
 * database so every app instance sees the same counts.
 */
export const authAttempt = pgTable(
  'auth_attempt',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    key: text().notNull(),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('auth_attempt_key_at_idx').on(t.key, t.at)],
);
