import { sql } from 'drizzle-orm';
import { bigserial, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

export const JOB_STATUSES = ['pending', 'running', 'done', 'dead'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/**
 * The transactional outbox: a side effect (an e-mail, later a push) is a row
 * written in the same transaction as the action that causes it, and a worker
 * carries it out afterwards with retries. A job that keeps failing ends as
 * `dead` and stays here for admins to see and retry; nothing is dropped.
 */
export const job = pgTable(
  'job',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    queue: text().notNull(),
    payload: jsonb().notNull(),
    status: text({ enum: JOB_STATUSES }).notNull().default('pending'),
    attempts: integer().notNull().default(0),
    maxAttempts: integer().notNull().default(12),
    runAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp({ withTimezone: true }),
    lastError: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp({ withTimezone: true }),
    /**
     * Jobs of one queue with the same key while pending are one job: enqueuing
     * again moves its run_at and merges the payload (a debounced mail).
     */
    dedupKey: text(),
  },
  (t) => [
    index('job_due_idx')
      .on(t.runAt)
      .where(sql`${t.status} in ('pending', 'running')`),
    index('job_status_idx').on(t.status),
    uniqueIndex('job_pending_dedup_key')
      .on(t.queue, t.dedupKey)
      .where(sql`${t.status} = 'pending' and ${t.dedupKey} is not null`),
    check('job_status_check', sql`${t.status} in ('pending', 'running', 'done', 'dead')`),
    check('job_attempts_check', sql`${t.attempts} >= 0 and ${t.maxAttempts} >= 1`),
  ],
);

export type Job = typeof job.$inferSelect;
