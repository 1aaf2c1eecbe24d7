import { mkdir } from 'node:fs/promises';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { mayReadOnLoan } from './accounts/loan-audience';
import { buildApp } from './app';
import type { JobContext } from './app-context';
import { loadCommonPasswords } from './auth/password-policy';
import { resolveAuthSecret } from './auth/secret';
import type { Config } from './config';
import { databaseTargetFor, openDatabase, type Database } from './db/client';
import { lockEmbeddedDatabase } from './db/embedded-lock';
import { FILE_RECURRING_JOBS, fileJobHandlers } from './platform/files/file-jobs';
import { FileVault } from './platform/files/file-vault';
import { openObjectStore, resolveMasterKeys } from './platform/files/open-vault';
import { MAIL_QUEUE, mailJobHandler } from './platform/mail/mail-jobs';
import { createMailer, type Mailer } from './platform/mail/mailer';
import { loggableUrl } from './platform/http/request-log';
import { DAY_MS, JobWorker, mergeJobHandlers, type JobHandler, type JobWorkerOptions, type RecurringJob } from './platform/jobs/worker';
import { features } from './features';

export interface Runtime {
  app: FastifyInstance;
  database: Database;
  mailer: Mailer;
  worker: JobWorker;
  logger: FastifyBaseLogger;
  /** Stops accepting, finishes in-flight requests and jobs, closes the database. */
  stop(): Promise<void>;
}

let stdout: ReturnType<typeof pino.destination> | undefined;

/**
 * Standard output for the log, written in blocks of at least 4 KB (and at
 * least every 250 ms) rather than one write per line. The writes stay
 * synchronous, as pino's own default: an asynchronous write costs more on
 * this thread than the write itself (measured: about 9 µs a line against 5).
 * The block is flushed when the process exits, however it exits; a process
 * killed outright (SIGKILL) can lose the last quarter second.
 */
function bufferedStdout() {
  if (!stdout) {
    const destination = pino.destination({ dest: 1, minLength: 4096, sync: true });
    setInterval(() => destination.flush(), 250).unref();
    process.once('exit', () => destination.flushSync());
    stdout = destination;
  }
  return stdout;
}

/** The process logger: JSON lines to standard output, or to `destination` (tests read their lines). */
export function createLogger(config: Pick<Config, 'logLevel'>, destination?: { write(line: string): void }): FastifyBaseLogger {
  const options = {
    level: config.logLevel,
    base: { service: 'coverly' },
    serializers: {
      // A request's summary (request-log.ts) is logged as it is; anything else with a URL has it redacted.
      req: (request: { method: string; url: string; ip?: string | null; summarised?: true }) => ({
        method: request.method,
        url: request.summarised ? request.url : loggableUrl(request.url),
        remoteAddress: request.ip,
      }),
    },
  };
  return destination ? pino(options, destination) : pino(options, bufferedStdout());
}

/**
 * What the job worker runs: every queue's handler (the mail and file queues
 * are the platform's; every other queue belongs to the feature that enqueues
 * to it) and the recurring jobs it keeps queued (the platform's and each
 * feature's). Tests build their worker from the same.
 */
export function jobSetup(context: JobContext): { handlers: Record<string, JobHandler>; recurring: RecurringJob[] } {
  return {
    handlers: mergeJobHandlers(
      // A mail to someone about a loan goes only if, when it is sent, they may still read what it is about (decision 021).
      { [MAIL_QUEUE]: mailJobHandler(context.mailer, (recipient) => mayReadOnLoan(context.db, recipient)), ...fileJobHandlers(context) },
      ...features.map((feature) => feature.jobs?.(context) ?? {}),
    ),
    recurring: [...FILE_RECURRING_JOBS, ...features.flatMap((feature) => feature.recurring ?? [])],
  };
}

/**
 * Opens the database (PostgreSQL when DATABASE_URL is set, else PGlite in
 * DATA_DIR/db), applies migrations, and wires the mailer, the job worker and
 * the HTTP app together. main.ts listens on the result; tests use it too.
 */
export async function createRuntime(
  config: Config,
  overrides: { logger?: FastifyBaseLogger; mailer?: Mailer; worker?: Partial<Omit<JobWorkerOptions, 'db' | 'handlers' | 'logger'>>; distDir?: string } = {},
): Promise<Runtime> {
  const logger = overrides.logger ?? createLogger(config);
  config = { ...config, authSecret: await resolveAuthSecret(config, logger) };
  const masterKeys = await resolveMasterKeys(config, logger);
  // A missing password blocklist fails the start, not somebody's sign-up later.
  loadCommonPasswords();
  const target = databaseTargetFor(config);
  await mkdir(config.dataDir, { recursive: true });
  const unlock = target.kind === 'pglite' ? lockEmbeddedDatabase(config.dataDir) : () => {};
  let database: Database;
  try {
    database = await openDatabase(target);
  } catch (error) {
    unlock();
    throw error;
  }
  try {
    await database.migrate();
  } catch (error) {
    await database.close();
    unlock();
    throw error;
  }
  const mailer = overrides.mailer ?? createMailer(config, logger);
  let files: FileVault;
  try {
    files = new FileVault(await openObjectStore(config), masterKeys);
  } catch (error) {
    await database.close();
    unlock();
    throw error;
  }
  const { handlers, recurring } = jobSetup({ config, db: database.db, mailer, files, logger });
  const worker = new JobWorker({
    db: database.db,
    handlers,
    logger,
    doneJobRetentionMs: config.jobRetentionDays * DAY_MS,
    recurring,
    ...overrides.worker,
  });
  const app = await buildApp({ config, database, files, logger, onJobsEnqueued: worker.nudge, ...(overrides.distDir ? { distDir: overrides.distDir } : {}) });

  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      await app.close();
      await worker.stop();
      mailer.close();
      await database.close();
      unlock();
    })());
  return { app, database, mailer, worker, logger, stop };
}
