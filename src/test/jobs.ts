import { createMailer } from '../server/platform/mail/mailer';
import type { FileVault } from '../server/platform/files/file-vault';
import { JobWorker } from '../server/platform/jobs/worker';
import type { JobContext } from '../server/app-context';
import { jobSetup } from '../server/runtime';
import type { Api } from './api';

const silent = { info() {}, warn() {}, error() {} };

export interface JobRun {
  /** Every handler's log lines, to assert on. */
  logged: { level: 'info' | 'warn' | 'error'; fields: object; message: string }[];
}

/**
 * The outbox worker of the app under test, with the handlers and recurring
 * jobs `createRuntime` gives it (`jobSetup`: mail to the file drop in
 * DATA_DIR/mail, the file queues, each feature's), retries due again at once,
 * over the app's own vault unless `files` is given.
 */
export async function testJobWorker(api: Api, { files }: { files?: FileVault } = {}) {
  const run: JobRun = { logged: [] };
  const log =
    (level: 'info' | 'warn' | 'error') =>
    (fields: object, message = '') =>
      void run.logged.push({ level, fields, message });
  const logger = { info: log('info'), warn: log('warn'), error: log('error') };
  const context: JobContext = {
    config: api.config,
    db: api.db,
    mailer: createMailer(api.config, silent as never),
    files: files ?? api.files,
    logger,
  };
  const { handlers, recurring } = jobSetup(context);
  const worker = new JobWorker({ db: api.db, handlers, recurring, logger, baseBackoffMs: 1, maxBackoffMs: 1 });
  return {
    ...run,
    worker,
    files: context.files,
    /** Runs due jobs until none is left (failed ones again, until they are done or dead). Returns how many runs there were. */
    async drain(limit = 100): Promise<number> {
      let runs = 0;
      for (let round = 0; round < limit; round++) {
        const ran = await worker.runOnce();
        runs += ran;
        if (ran === 0) {
          // A retry is due a millisecond after its failure.
          await new Promise((resolve) => setTimeout(resolve, 5));
          const again = await worker.runOnce();
          if (again === 0) return runs;
          runs += again;
        }
      }
      throw new Error(`testJobWorker: jobs still due after ${limit} rounds`);
    },
  };
}
