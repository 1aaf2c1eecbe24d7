import { bigint, bigserial, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { user } from './auth';

/**
 * Recent sensitive attempts (sign-ins, password-reset requests), keyed by
 * what they target ("sign-in:pair:<email>|<ip>", "sign-in:ip:<ip>",
 * "sign-in:account:<email>", "reset:email:<email>"…), and the addresses each
 * account signed in from ("sign-in:known:<email>|<ip>"). Kept in the
 * database so every app instance sees the same counts (auth/throttle.ts).
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

/**
 * The newest TOTP time step each account has used (RFC 6238 §5.2): a code is
 * accepted once, and never one from the same or an earlier step after it.
 */
export const totpLastStep = pgTable('totp_last_step', {
  userId: text()
    .primaryKey()
    .references(() => user.id, { onDelete: 'cascade' }),
  step: bigint({ mode: 'number' }).notNull(),
  usedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
