import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { job, type JobStatus } from '../../db/schema';
import { noteJobEnqueued } from './job-wake';

export interface EnqueueOptions {
  /** Earliest time to run; now when omitted. */
  runAt?: Date;
  maxAttempts?: number;
}

/**
 * Records a side effect to carry out after the caller's transaction commits.
 * Pass the transaction (`tx`) so the job exists only if the action does.
 * Inside a request the worker is woken when the request is done (job-wake.ts).
 */
export async function enqueueJob(db: Db, queue: string, payload: unknown, options: EnqueueOptions = {}): Promise<number> {
  const [row] = await db
    .insert(job)
    .values({ queue, payload, ...(options.runAt ? { runAt: options.runAt } : {}), ...(options.maxAttempts ? { maxAttempts: options.maxAttempts } : {}) })
    .returning({ id: job.id });
  if (!row) throw new Error('enqueueJob: insert returned no row');
  noteJobEnqueued();
  return row.id;
}

export interface ClaimedJob {
  id: number;
  queue: string;
  payload: unknown;
  attempts: number;
  maxAttempts: number;
}

/**
 * Takes up to `limit` due jobs and marks them running for `leaseMs`. A job
 * whose worker died is taken again once its lease runs out. SKIP LOCKED lets
 * any number of app instances share the table.
 */
export async function claimDueJobs(db: Db, { limit, leaseMs }: { limit: number; leaseMs: number }): Promise<ClaimedJob[]> {
  type Row = { id: string | number; queue: string; payload: unknown; attempts: number; max_attempts: number };
  const result = (await db.execute(sql`
    update ${job}
       set status = 'running',
           attempts = attempts + 1,
           locked_until = now() + ${`${leaseMs} milliseconds`}::interval,
           updated_at = now()
     where id in (
       select id from ${job}
        where (status = 'pending' and run_at <= now())
           or (status = 'running' and locked_until < now())
        order by run_at, id
        limit ${limit}
        for update skip locked)
    returning id, queue, payload, attempts, max_attempts`)) as unknown as { rows: Row[] };
  return result.rows.map((r) => ({ id: Number(r.id), queue: r.queue, payload: r.payload, attempts: r.attempts, maxAttempts: r.max_attempts }));
}

/** Marks jobs that ran done, in one statement. */
export async function markJobsDone(db: Db, ids: number[]) {
  if (ids.length === 0) return;
  await db
    .update(job)
    .set({ status: 'done', lockedUntil: null, lastError: null, finishedAt: sql`now()`, updatedAt: sql`now()` })
    .where(inArray(job.id, ids));
}

/** Schedules the next try, or ends the job as `dead` (kept, visible, retryable) after its last attempt. */
export async function markJobFailed(db: Db, claimed: ClaimedJob, error: string, retryInMs: number) {
  const dead = claimed.attempts >= claimed.maxAttempts;
  await db
    .update(job)
    .set({
      status: dead ? 'dead' : 'pending',
      lockedUntil: null,
      lastError: error.slice(0, 2000),
      runAt: dead ? sql`${job.runAt}` : sql`now() + ${`${Math.round(retryInMs)} milliseconds`}::interval`,
      finishedAt: dead ? sql`now()` : null,
      updatedAt: sql`now()`,
    })
    .where(eq(job.id, claimed.id));
}

/** Puts dead jobs back in the queue with a fresh set of attempts. Returns how many. */
export async function retryDeadJobs(db: Db, ids?: number[]): Promise<number> {
  const rows = await db
    .update(job)
    .set({ status: 'pending', attempts: 0, runAt: sql`now()`, finishedAt: null, updatedAt: sql`now()` })
    .where(ids ? and(eq(job.status, 'dead'), inArray(job.id, ids)) : eq(job.status, 'dead'))
    .returning({ id: job.id });
  if (rows.length > 0) noteJobEnqueued();
  return rows.length;
}

export async function countJobsByStatus(db: Db): Promise<Record<JobStatus, number>> {
  const rows = await db
    .select({ status: job.status, count: sql<number>`count(*)::int` })
    .from(job)
    .groupBy(job.status);
  const counts: Record<JobStatus, number> = { pending: 0, running: 0, done: 0, dead: 0 };
  for (const row of rows) counts[row.status] = row.count;
  return counts;
}
