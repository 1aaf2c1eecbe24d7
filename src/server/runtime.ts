import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { buildApp } from './app';
import type { Config } from './config';
import { databaseTargetFor, openDatabase, type Database } from './db/client';
import { MAIL_QUEUE, mailJobHandler } from './platform/mail/mail-jobs';
import { createMailer, type Mailer } from './platform/mail/mailer';
import { JobWorker, type JobWorkerOptions } from './platform/jobs/worker';

export interface Runtime {
  app: FastifyInstance;
  database: Database;
  mailer: Mailer;
  worker: JobWorker;
  logger: FastifyBaseLogger;
  /** Stops accepting, finishes in-flight requests and jobs, closes the database. */
  stop(): Promise<void>;
}

export function createLogger(config: Pick<Config, 'logLevel'>): FastifyBaseLogger {
  return pino({ level: config.logLevel, base: { service: 'coverly' } });
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
  const database = await openDatabase(databaseTargetFor(config));
  try {
    await database.migrate();
  } catch (error) {
    await database.close();
    throw error;
  }
  const mailer = overrides.mailer ?? createMailer(config, logger);
  const worker = new JobWorker({ db: database.db, handlers: { [MAIL_QUEUE]: mailJobHandler(mailer) }, logger, ...overrides.worker });
  const app = await buildApp({ config, database, logger, onJobsEnqueued: worker.nudge, ...(overrides.distDir ? { distDir: overrides.distDir } : {}) });

  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      await app.close();
      await worker.stop();
      mailer.close();
      await database.close();
    })());
  return { app, database, mailer, worker, logger, stop };
}
