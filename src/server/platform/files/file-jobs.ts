import type { Db } from '../../db/client';
import type { JobHandler, RecurringJob } from '../jobs/worker';
import { assertObjectKey } from '../storage/object-store';
import type { FileVault } from './file-vault';
import { FILE_QUEUES } from './file-objects';
import { deleteExpiredUploads, sweepStorage } from './sweep';

const HOUR_MS = 60 * 60 * 1000;
const EXPIRE_UPLOADS_EVERY_MS = 10 * 60 * 1000;
/**
 * The sweep runs hourly and touches only objects more than a day old;
 * unfinished uploads left idle (UPLOAD_IDLE_MS) are deleted every 10 minutes,
 * so what they stored does not wait a day.
 */
export const FILE_RECURRING_JOBS: RecurringJob[] = [
  { queue: FILE_QUEUES.sweep, everyMs: HOUR_MS, maxAttempts: 3 },
  { queue: FILE_QUEUES.expireUploads, everyMs: EXPIRE_UPLOADS_EVERY_MS, maxAttempts: 3 },
];

function keysOf(payload: unknown): string[] {
  const keys = (payload as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys) || !keys.every((key) => typeof key === 'string')) throw new Error('files.delete-objects: the payload has no list of keys');
  for (const key of keys) assertObjectKey(key);
  return keys;
}

/** The handlers of the file queues, registered by the runtime beside the mail queue's. */
export function fileJobHandlers(context: {
  db: Db;
  files: FileVault;
  logger: { info: (obj: object, msg: string) => void; warn: (obj: object, msg: string) => void };
}): Record<string, JobHandler> {
  return {
    // Deleting a missing object is no error, so a retry after a partial run is harmless.
    [FILE_QUEUES.deleteObjects]: async (payload) => {
      const keys = keysOf(payload);
      for (const key of keys) await context.files.delete(key);
      context.logger.info({ objects: keys.length }, 'stored objects deleted');
    },
    [FILE_QUEUES.sweep]: async () => {
      await sweepStorage(context);
    },
    [FILE_QUEUES.expireUploads]: async () => {
      const expired = await deleteExpiredUploads(context.db, new Date());
      if (expired > 0) context.logger.info({ expiredUploads: expired }, 'unfinished uploads expired');
    },
  };
}
