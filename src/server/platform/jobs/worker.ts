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
}

export const DAY_MS = 24 * 60 * 60 * 1000;

/** Exponential backoff with jitter: base · 2^(attempt-1), capped, ±20%. */
export function backoffDelay(attempt: number, baseMs: number, maxMs: number, random = Math.random): number {
  const exponential = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exponential * (0.8 + 0.4 * random()));
}

/**
 * Runs outbox jobs after their transaction committed: polls for due jobs, and
 * wakes at once when `nudge()` says new ones were enqueued.
 */
export class JobWorker {
  private readonly options: Required<Omit<JobWorkerOptions, 'db' | 'handlers' | 'logger'>> & Pick<JobWorkerOptions, 'db' | 'handlers' | 'logger'>;
  private running = false;
  private wake: (() => void) | null = null;
  private nudged = false;
  private loop: Promise<void> | null = null;
  private nextPruneAt = 0;
  private nextScheduleAt = 0;

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
      ...options,
    };
  }

  start() {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Finishes the batch in hand, then stops. */
  async stop() {
    this.running = false;
    this.wake?.();
    await this.loop;
    this.loop = null;
  }

  nudge = () => {
    this.nudged = true;
    this.wake?.();
  };

  /** Runs every job due now, once. Returns how many ran. */
  async runOnce(): Promise<number> {
    const { db, batchSize, leaseMs, logger } = this.options;
    const claimed = await claimDueJobs(db, { limit: batchSize, leaseMs });
    const done: ClaimedJob[] = [];
    for (const job of claimed) if (await this.execute(job)) done.push(job);
    // One statement marks the batch's successes done, not one per job.
    await markJobsDone(
      db,
      done.map((job) => job.id),
    );
    for (const job of done) logger.info({ job: { id: job.id, queue: job.queue, attempt: job.attempts } }, 'job done');
    return claimed.length;
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

  /** Runs one job's handler; a failure is recorded on the job (retry or dead). True when it succeeded. */
  private async execute(job: ClaimedJob): Promise<boolean> {
    const { db, handlers, logger, baseBackoffMs, maxBackoffMs } = this.options;
    const handler = handlers[job.queue];
    try {
      if (!handler) throw new Error(`No handler for queue "${job.queue}"`);
      await handler(job.payload, job);
      return true;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const delay = backoffDelay(job.attempts, baseBackoffMs, maxBackoffMs);
      await markJobFailed(db, job, message, delay);
      const dead = job.attempts >= job.maxAttempts;
      (dead ? logger.error : logger.warn).call(
        logger,
        { job: { id: job.id, queue: job.queue, attempt: job.attempts, maxAttempts: job.maxAttempts }, err: message, ...(dead ? {} : { retryInMs: delay }) },
        dead ? 'job failed for the last time and is kept as dead' : 'job failed, will retry',
      );
      return false;
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
