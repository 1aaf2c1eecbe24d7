import { inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { documentFile, loan } from '../../db/schema';
import { enqueueJob } from '../jobs/outbox';

/**
 * The file platform's background work (decision 014). Rows go first, objects
 * after: whoever deletes rows that point at objects (a loan, a checklist item,
 * a team, an expired upload) collects their object keys in the same
 * transaction and enqueues their deletion there, so the objects go once the
 * rows are gone for good, with the outbox's retries. Whatever still slips
 * through (an upload whose process died before its row was written) the
 * hourly sweep deletes a day later.
 */
export const FILE_QUEUES = {
  deleteObjects: 'files.delete-objects',
  sweep: 'files.sweep',
  /** Every 10 minutes: unfinished uploads left idle past their expiry go, with their files (the hourly sweep does the rest). */
  expireUploads: 'files.expire-uploads',
} as const;

/** Keys per deletion job: a payload stays small, and a big loan makes several jobs. */
const KEYS_PER_JOB = 500;

/** Enqueues the deletion of `keys` in the caller's transaction (pass `tx`): they go after it commits. */
export async function enqueueObjectDeletion(db: Db, keys: readonly string[]): Promise<void> {
  const unique = [...new Set(keys)];
  for (let at = 0; at < unique.length; at += KEYS_PER_JOB) {
    await enqueueJob(db, FILE_QUEUES.deleteObjects, { keys: unique.slice(at, at + KEYS_PER_JOB) });
  }
}

/** Every object key of the document files `where` selects: the files' and their previews'. */
export async function objectKeysOfFiles(db: Db, where: SQL | undefined): Promise<string[]> {
  const rows = await db.select({ objectKey: documentFile.objectKey, previewObjectKey: documentFile.previewObjectKey }).from(documentFile).where(where);
  return rows.flatMap((row) => (row.previewObjectKey ? [row.objectKey, row.previewObjectKey] : [row.objectKey]));
}

/** The object keys of every file of these loans (read before deleting them: the rows go with the loans). */
export const objectKeysOfLoans = (db: Db, loanIds: readonly string[]) =>
  loanIds.length === 0 ? Promise.resolve([]) : objectKeysOfFiles(db, inArray(documentFile.loanId, [...loanIds]));

/** The object keys of every file of these checklist items. */
export const objectKeysOfItems = (db: Db, itemIds: readonly string[]) =>
  itemIds.length === 0 ? Promise.resolve([]) : objectKeysOfFiles(db, inArray(documentFile.itemId, [...itemIds]));

/** The object keys of every file of every loan of these teams. */
export const objectKeysOfTeams = (db: Db, teamIds: readonly string[]) =>
  teamIds.length === 0
    ? Promise.resolve([])
    : objectKeysOfFiles(db, sql`${documentFile.loanId} in (select ${loan.id} from ${loan} where ${inArray(loan.teamId, [...teamIds])})`);

/**
 * Which of `keys` a row points at. Every column that holds an object key is
 * listed here: an object no column names is an orphan to the sweep, so a new
 * table that keeps objects must add its column, or the sweep deletes them.
 */
export async function referencedObjectKeys(db: Db, keys: readonly string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const list = [...keys];
  const rows = await db
    .select({ objectKey: documentFile.objectKey, previewObjectKey: documentFile.previewObjectKey })
    .from(documentFile)
    .where(or(inArray(documentFile.objectKey, list), inArray(documentFile.previewObjectKey, list)));
  const wanted = new Set(list);
  return new Set(rows.flatMap((row) => [row.objectKey, row.previewObjectKey]).filter((key): key is string => key !== null && wanted.has(key)));
}
