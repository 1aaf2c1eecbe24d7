import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { claimDueJobs, markJobFailed, markJobsDone, pruneDoneJobs, scheduleRecurringJob, type ClaimedJob } from './outbox';

export type JobHandler = (payload: unknown, job: ClaimedJob) => Promise<void>;

/** A job that runs every `everyMs` (its handler is registered like any other queue's). */
export interface RecurringJob {
  queue: string;
  everyMs: number;
  maxAttempts?: number;
}

/** One table of handlers from several (the mail queue, each feature's): a queue handled twice is a start-up error. */
export function mergeJobHandlers(...tables: Record<string, JobHandler>[]): Record<string, JobHandler> {
  const merged: Record<string, JobHandler> = {};
  for (const table of tables) {
    for (const [queue, handler] of Object.entries(table)) {
      if (queue in merged) throw new Error(`The job queue ${queue} has two handlers`);
      merged[queue] = handler;
    }
  }
  return merged;
}

export interface JobWorkerOptions {
  db: Db;
  handlers: Record<string, JobHandler>;
  logger: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** How often to look for due jobs when nothing nudges the worker. */
  pollMs?: number;
  /** First retry delay; each later one doubles, up to `maxBackoffMs`, with ±20% jitter. */
  baseBackoffMs?: number;
  maxBackoffMs?: number;
  batchSize?: number;
  leaseMs?: number;
  /** How long a done job is kept (JOB_RETENTION_DAYS) before the worker deletes it. */
  doneJobRetentionMs?: number;
  /** How often the running worker deletes the done jobs past their time: at start, then this often. */
  pruneEveryMs?: number;
  /** Recurring jobs: at start and every `scheduleCheckMs`, the next run of each is queued if none is waiting. */
  recurring?: RecurringJob[];
  scheduleCheckMs?: number;
  /**
   * Recording what a batch finished (done, or failed) is retried after a
   * failure, from this delay doubling up to `recordRetryMaxMs`, until it
   * succeeds or the batch's lease nears its end (`leaseMs` less
   * `leaseMarginMs`); what is still unrecorded then stays in memory.
   */
  recordRetryBaseMs?: number;
  recordRetryMaxMs?: number;
  leaseMarginMs?: number;
}

export const DAY_MS = 24 * 60 * 60 * 1000;

/** Exponential backoff with jitter: base · 2^(attempt-1), capped, ±20%. */
export function backoffDelay(attempt: number, baseMs: number, maxMs: number, random = Math.random): number {
  const exponential = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exponential * (0.8 + 0.4 * random()));
}

/** How a job's run ended, kept until the database has it. */
type Outcome = { job: ClaimedJob; ok: true } | { job: ClaimedJob; ok: false; error: string; retryInMs: number };

/**
 * Runs outbox jobs after their transaction committed: polls for due jobs, and
 * wakes at once when `nudge()` says new ones were enqueued.
 *
 * What a batch finished is recorded with retries (decision 022): when the
 * database blinks just after the handlers ran, the worker keeps the outcomes
 * in memory and tries again with backoff until the write succeeds or the
 * lease is near its end, so the jobs neither sit "running" until the lease
 * runs out nor run a second time (their mails sent twice). Outcomes it could
 * not record by then stay in memory: the next batch records them first, and
 * a job of them claimed again (its lease over) is recorded, not run again.
 */
export class JobWorker {
  private readonly options: Required<Omit<JobWorkerOptions, 'db' | 'handlers' | 'logger'>> & Pick<JobWorkerOptions, 'db' | 'handlers' | 'logger'>;
  private running = false;
  private wake: (() => void) | null = null;
  private nudged = false;
  private loop: Promise<void> | null = null;
  private nextPruneAt = 0;
  private nextScheduleAt = 0;
  private stopping = false;
  /** Outcomes of jobs that ran but are not yet recorded, by job id. */
  private readonly unrecorded = new Map<number, Outcome>();

  constructor(options: JobWorkerOptions) {
    this.options = {
      pollMs: 1000,
      baseBackoffMs: 5000,
      maxBackoffMs: 15 * 60_000,
      batchSize: 10,
      leaseMs: 5 * 60_000,
      doneJobRetentionMs: 7 * DAY_MS,
      pruneEveryMs: 60 * 60_000,
      recurring: [],
      scheduleCheckMs: 60_000,
      recordRetryBaseMs: 200,
      recordRetryMaxMs: 10_000,
      leaseMarginMs: 30_000,
      ...options,
    };
  }

  start() {
    if (this.running) return;
    this.running = true;
    this.stopping = false;
    this.loop = this.run();
  }

  /** Finishes the batch in hand, then stops. */
  async stop() {
    this.running = false;
    this.stopping = true;
    this.wake?.();
    await this.loop;
    this.loop = null;
  }

  nudge = () => {
    this.nudged = true;
    this.wake?.();
  };

  /** Runs every job due now, once. Returns how many ran (or were claimed again and only recorded). */
  async runOnce(): Promise<number> {
    const { db, batchSize, leaseMs } = this.options;
    // What an earlier batch could not record goes first, so it does not wait for its lease.
    if (this.unrecorded.size > 0) await this.record([], Date.now() + leaseMs - this.margin());
    const claimed = await claimDueJobs(db, { limit: batchSize, leaseMs });
    const leaseEnds = Date.now() + leaseMs;
    const outcomes: Outcome[] = [];
    for (const job of claimed) {
      // It ran here already; only its recording was lost. Running it again would repeat its side effect.
      const held = this.unrecorded.get(job.id);
      outcomes.push(held ?? (await this.execute(job)));
    }
    await this.record(outcomes, leaseEnds - this.margin());
    return claimed.length;
  }

  /** Outcomes not yet recorded (ids), for tests and logs. */
  get unrecordedJobIds(): number[] {
    return [...this.unrecorded.keys()];
  }

  private margin() {
    return Math.min(this.options.leaseMarginMs, this.options.leaseMs / 5);
  }

  /**
   * Records `outcomes` and whatever earlier ones are held: the successes in
   * one statement, each failure in its own. A failed write is tried again
   * with backoff until `deadline` (or the worker stops); what is left stays
   * held. Never throws.
   */
  private async record(outcomes: Outcome[], deadline: number) {
    const { db, logger, recordRetryBaseMs, recordRetryMaxMs } = this.options;
    for (const outcome of outcomes) this.unrecorded.set(outcome.job.id, outcome);
    for (let attempt = 1; this.unrecorded.size > 0; attempt++) {
      try {
        const held = [...this.unrecorded.values()];
        const done = held.filter((outcome) => outcome.ok).map((outcome) => outcome.job);
        // One statement marks the batch's successes done, not one per job.
        await markJobsDone(
          db,
          done.map((job) => job.id),
        );
        for (const job of done) {
          this.unrecorded.delete(job.id);
          logger.info({ job: { id: job.id, queue: job.queue, attempt: job.attempts } }, 'job done');
        }
        for (const outcome of held) {
          if (outcome.ok) continue;
          await markJobFailed(db, outcome.job, outcome.error, outcome.retryInMs);
          this.unrecorded.delete(outcome.job.id);
        }
      } catch (error) {
        const wait = backoffDelay(attempt, recordRetryBaseMs, recordRetryMaxMs);
        const jobs = this.unrecordedJobIds;
        const err = error instanceof Error ? error.message : String(error);
        if (this.stopping || Date.now() + wait > deadline) {
          logger.error({ jobs, err }, 'job worker could not record finished jobs; kept in memory, recorded before they run again');
          return;
        }
        logger.warn({ jobs, err, retryInMs: wait }, 'job worker could not record finished jobs; trying again');
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  }

  /** Deletes the done jobs kept longer than `doneJobRetentionMs`. Returns how many. */
  async pruneOnce(): Promise<number> {
    const { db, doneJobRetentionMs, logger } = this.options;
    const pruned = await pruneDoneJobs(db, doneJobRetentionMs);
    if (pruned > 0) logger.info({ pruned, retentionMs: doneJobRetentionMs }, 'done jobs past their retention deleted');
    return pruned;
  }

  /** Queues the next run of each recurring job that has none waiting. Returns the queues it scheduled. */
  async scheduleOnce(): Promise<string[]> {
    const scheduled: string[] = [];
    for (const { queue, everyMs, maxAttempts } of this.options.recurring) {
      if (await scheduleRecurringJob(this.options.db, queue, everyMs, maxAttempts ? { maxAttempts } : {})) scheduled.push(queue);
    }
    return scheduled;
  }

  /** Runs one job's handler. A failure's next try (or its end as dead) is recorded with the batch. */
  private async execute(job: ClaimedJob): Promise<Outcome> {
    const { handlers, logger, baseBackoffMs, maxBackoffMs } = this.options;
    const handler = handlers[job.queue];
    try {
      if (!handler) throw new Error(`No handler for queue "${job.queue}"`);
      await handler(job.payload, job);
      return { job, ok: true };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const delay = backoffDelay(job.attempts, baseBackoffMs, maxBackoffMs);
      const dead = job.attempts >= job.maxAttempts;
      (dead ? logger.error : logger.warn).call(
        logger,
        { job: { id: job.id, queue: job.queue, attempt: job.attempts, maxAttempts: job.maxAttempts }, err: message, ...(dead ? {} : { retryInMs: delay }) },
        dead ? 'job failed for the last time and is kept as dead' : 'job failed, will retry',
      );
      return { job, ok: false, error: message, retryInMs: delay };
    }
  }

  private async run() {
    while (this.running) {
      let ran = 0;
      try {
        this.nudged = false;
        if (Date.now() >= this.nextPruneAt) {
          this.nextPruneAt = Date.now() + this.options.pruneEveryMs;
          await this.pruneOnce();
        }
        if (Date.now() >= this.nextScheduleAt) {
          this.nextScheduleAt = Date.now() + this.options.scheduleCheckMs;
          await this.scheduleOnce();
        }
        ran = await this.runOnce();
      } catch (error) {
        // The database may be briefly unreachable; keep polling.
        this.options.logger.error({ err: error instanceof Error ? error.message : String(error) }, 'job worker could not claim jobs');
      }
      if (!this.running) break;
      if (ran > 0 || this.nudged) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.options.pollMs);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
    }
  }
}
