import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { job, type JobStatus } from '../../db/schema';
import { noteJobEnqueued } from './job-wake';

export interface EnqueueOptions {
  /** Earliest time to run; now when omitted. */
  runAt?: Date;
  maxAttempts?: number;
  /**
   * Fields of the (object) payload that carry a secret, such as a mail whose
   * text holds an invitation link: they are removed from the row once the job
   * is done, so no backup or reader of the database finds a working link.
   * A pending or dead job keeps them: it still has to run (decision 002).
   */
  secretFields?: string[];
  /**
   * At most one pending job of the queue has this key: enqueuing again while
   * one is pending updates that job instead (its `runAt` becomes this one's,
   * its payload this one's, with the arrays named in `mergeArrays` holding
   * both jobs' values). A debounced mail: "later requests join it".
   */
  dedupKey?: string;
  /** With `dedupKey`: top-level array fields of the (object) payload whose values are kept from both jobs, each value once. */
  mergeArrays?: string[];
}

/** The payload key listing its secret fields; removed with them when the job is done, and never shown to a handler. */
export const SECRET_FIELDS_KEY = '$secret';
/** What a done job's payload says instead: which fields it held and no longer does. */
export const CLEARED_FIELDS_KEY = '$cleared';

/**
 * Records a side effect to carry out after the caller's transaction commits.
 * Pass the transaction (`tx`) so the job exists only if the action does.
 * Inside a request the worker is woken when the request is done (job-wake.ts).
 */
export async function enqueueJob(db: Db, queue: string, payload: unknown, options: EnqueueOptions = {}): Promise<number> {
  const stored = options.secretFields?.length ? withSecretFields(payload, options.secretFields) : payload;
  const insert = db.insert(job).values({
    queue,
    payload: stored,
    ...(options.runAt ? { runAt: options.runAt } : {}),
    ...(options.maxAttempts ? { maxAttempts: options.maxAttempts } : {}),
    ...(options.dedupKey ? { dedupKey: options.dedupKey } : {}),
  });
  const [row] = await (
    options.dedupKey
      ? insert.onConflictDoUpdate({
          target: [job.queue, job.dedupKey],
          targetWhere: sql`${job.status} = 'pending' and ${job.dedupKey} is not null`,
          set: { runAt: sql`excluded.run_at`, payload: mergedPayload(options.mergeArrays ?? []), updatedAt: sql`now()` },
        })
      : insert
  ).returning({ id: job.id });
  if (!row) throw new Error('enqueueJob: insert returned no row');
  noteJobEnqueued();
  return row.id;
}

/**
 * The payload of a pending job enqueued again with its key: the new payload,
 * with each of `arrays` holding the values of both (each once, in order).
 */
function mergedPayload(arrays: string[]) {
  let merged = sql`excluded.payload`;
  for (const field of arrays) {
    const both = sql`coalesce(${job.payload} -> ${field}::text, '[]'::jsonb) || coalesce(excluded.payload -> ${field}::text, '[]'::jsonb)`;
    const once = sql`(select coalesce(jsonb_agg(value order by first), '[]'::jsonb) from (select value, min(at) as first from jsonb_array_elements(${both}) with ordinality as e(value, at) group by value) as d)`;
    merged = sql`(${merged} || jsonb_build_object(${field}::text, ${once}))`;
  }
  return merged;
}

function withSecretFields(payload: unknown, fields: string[]): Record<string, unknown> {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) throw new Error('enqueueJob: secretFields needs an object payload');
  return { ...payload, [SECRET_FIELDS_KEY]: fields };
}

/** The payload as its handler sees it: without the list of its secret fields. */
function handlerPayload(payload: unknown): unknown {
  if (typeof payload !== 'object' || payload === null || !(SECRET_FIELDS_KEY in payload)) return payload;
  const { [SECRET_FIELDS_KEY]: _fields, ...rest } = payload as Record<string, unknown>;
  return rest;
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
  return result.rows.map((r) => ({ id: Number(r.id), queue: r.queue, payload: handlerPayload(r.payload), attempts: r.attempts, maxAttempts: r.max_attempts }));
}

/**
 * A payload without the secret fields it lists, and saying which they were
 * (`{"to": …, "subject": …, "$cleared": ["text", "html"]}`); any other payload as it is.
 */
const payloadWithoutSecrets = sql`case when ${job.payload} ? ${SECRET_FIELDS_KEY}
  then (${job.payload} - ${SECRET_FIELDS_KEY}::text - array(select jsonb_array_elements_text(${job.payload} -> ${SECRET_FIELDS_KEY}::text)))
       || jsonb_build_object(${CLEARED_FIELDS_KEY}::text, ${job.payload} -> ${SECRET_FIELDS_KEY}::text)
  else ${job.payload} end`;

/** Marks jobs that ran done, in one statement, and removes the secret fields their payloads carried. */
export async function markJobsDone(db: Db, ids: number[]) {
  if (ids.length === 0) return;
  await db
    .update(job)
    .set({ status: 'done', payload: payloadWithoutSecrets, lockedUntil: null, lastError: null, finishedAt: sql`now()`, updatedAt: sql`now()` })
    .where(inArray(job.id, ids));
}

/**
 * Deletes done jobs that finished more than `olderThanMs` ago, a batch at a
 * time (so no statement holds many rows). Pending, running and dead jobs
 * stay. Returns how many went.
 */
export async function pruneDoneJobs(db: Db, olderThanMs: number, batch = 1000): Promise<number> {
  let pruned = 0;
  for (;;) {
    const cutoff = sql`now() - ${`${Math.round(olderThanMs)} milliseconds`}::interval`;
    const due = db
      .select({ id: job.id })
      .from(job)
      .where(and(eq(job.status, 'done'), lt(job.finishedAt, cutoff)))
      .limit(batch);
    const rows = await db.delete(job).where(inArray(job.id, due)).returning({ id: job.id });
    pruned += rows.length;
    if (rows.length < batch) return pruned;
  }
}

/**
 * A job going back to pending keeps its deduplication key unless another
 * pending job of its queue took it meanwhile (enqueued while this one ran):
 * then both run, each with what it was enqueued for.
 */
const dedupKeyUnlessTaken = sql`case when exists (select 1 from ${job} as other
  where other.queue = ${job.queue} and other.dedup_key = ${job.dedupKey} and other.status = 'pending' and other.id <> ${job.id})
  then null else ${job.dedupKey} end`;

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
      ...(dead ? {} : { dedupKey: dedupKeyUnlessTaken }),
      finishedAt: dead ? sql`now()` : null,
      updatedAt: sql`now()`,
    })
    .where(eq(job.id, claimed.id));
}

/**
 * Keeps the next run of a recurring job (the storage sweep) in the queue:
 * when none of `queue` is pending or running, enqueues one due in `everyMs`.
 * Every instance's worker calls it; a transaction-scoped advisory lock lets
 * one at a time look and insert, so the queue never holds two. Returns
 * whether it enqueued.
 */
export async function scheduleRecurringJob(db: Db, queue: string, everyMs: number, options: Pick<EnqueueOptions, 'maxAttempts'> = {}): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`coverly.recurring.${queue}`}))`);
    const [waiting] = await tx
      .select({ id: job.id })
      .from(job)
      .where(and(eq(job.queue, queue), inArray(job.status, ['pending', 'running'])))
      .limit(1);
    if (waiting) return false;
    await enqueueJob(tx, queue, {}, { runAt: new Date(Date.now() + everyMs), ...options });
    return true;
  });
}

/** Puts dead jobs back in the queue with a fresh set of attempts. Returns how many. */
export async function retryDeadJobs(db: Db, ids?: number[]): Promise<number> {
  const rows = await db
    .update(job)
    // A retried job runs on its own: several dead jobs of one key may come back at once.
    .set({ status: 'pending', attempts: 0, runAt: sql`now()`, dedupKey: null, finishedAt: null, updatedAt: sql`now()` })
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
