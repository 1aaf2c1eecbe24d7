import { inArray, lt } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { documentFile, documentUpload } from '../../db/schema';
import { DAY_MS } from '../jobs/worker';
import { enqueueObjectDeletion, objectKeysOfFiles, referencedObjectKeys } from './file-objects';
import type { FileVault } from './file-vault';

/** How old an object must be before the sweep may take it for an orphan: an upload in flight stores its object before its row. */
export const ORPHAN_AGE_MS = DAY_MS;

/** A key FileVault made: a prefix, then a random UUID. Nothing else in the store is the sweep's to delete. */
const VAULT_KEY = /\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface SweepResult {
  /** Uploads that expired unfinished, deleted with their files (their objects queued for deletion). */
  expiredUploads: number;
  /** Objects older than a day that no row points to, deleted. */
  orphansDeleted: number;
  /** Unfinished writes (multipart uploads, temporary files) older than a day, aborted. */
  staleUploadsAborted: number;
  /** Why the store could not list its unfinished writes, when it could not. */
  abortUnsupported?: string;
}

interface SweepContext {
  db: Db;
  files: Pick<FileVault, 'objects'>;
  logger: { info: (obj: object, msg: string) => void; warn: (obj: object, msg: string) => void };
}

/** Deletes uploads that expired unfinished, a batch per transaction; their objects are queued for deletion in the same one. */
export async function deleteExpiredUploads(db: Db, now: Date, batch = 500): Promise<number> {
  let deleted = 0;
  for (;;) {
    const count = await db.transaction(async (tx) => {
      // Locked, so an upload being completed right now is either finished first or skipped.
      const expired = await tx
        .select({ id: documentUpload.id })
        .from(documentUpload)
        .where(lt(documentUpload.expiresAt, now))
        .limit(batch)
        .for('update', { skipLocked: true });
      if (expired.length === 0) return 0;
      const ids = expired.map((upload) => upload.id);
      const keys = await objectKeysOfFiles(tx, inArray(documentFile.uploadId, ids));
      await tx.delete(documentUpload).where(inArray(documentUpload.id, ids)); // its files' rows go with it
      await enqueueObjectDeletion(tx, keys);
      return ids.length;
    });
    deleted += count;
    if (count < batch) return deleted;
  }
}

/** Deletes every object written before `cutoff` that no row points to, checking `batch` keys per query. */
async function deleteOrphans({ db, files }: SweepContext, cutoff: Date, batch: number): Promise<number> {
  let deleted = 0;
  let candidates: string[] = [];
  const settle = async () => {
    const referenced = await referencedObjectKeys(db, candidates);
    for (const key of candidates) {
      if (referenced.has(key)) continue;
      await files.objects.delete(key);
      deleted++;
    }
    candidates = [];
  };
  for await (const object of files.objects.list()) {
    if (object.writtenAt >= cutoff || !VAULT_KEY.test(object.key)) continue;
    candidates.push(object.key);
    if (candidates.length >= batch) await settle();
  }
  await settle();
  return deleted;
}

/**
 * The hourly storage sweep (decision 014): (a) uploads that expired
 * unfinished go with their files, (b) objects more than a day old that no
 * row points to are deleted, (c) unfinished writes more than a day old are
 * aborted. Nothing younger than a day is touched, so an upload whose object
 * is stored and whose row is not yet written keeps its object.
 */
export async function sweepStorage(context: SweepContext, options: { now?: Date; batch?: number } = {}): Promise<SweepResult> {
  const now = options.now ?? new Date();
  const batch = options.batch ?? 500;
  const cutoff = new Date(now.getTime() - ORPHAN_AGE_MS);
  const expiredUploads = await deleteExpiredUploads(context.db, now, batch);
  const orphansDeleted = await deleteOrphans(context, cutoff, batch);
  const aborted = (await context.files.objects.abortStaleUploads?.(cutoff)) ?? { aborted: 0, unsupported: 'the store has no unfinished uploads to list' };
  const result: SweepResult = {
    expiredUploads,
    orphansDeleted,
    staleUploadsAborted: aborted.aborted,
    ...(aborted.unsupported ? { abortUnsupported: aborted.unsupported } : {}),
  };
  context.logger.info({ sweep: result }, 'storage swept');
  if (aborted.unsupported) {
    context.logger.warn(
      { reason: aborted.unsupported },
      'the object store cannot list unfinished multipart uploads: let a bucket lifecycle rule abort them (AbortIncompleteMultipartUpload, 1 day)',
    );
  }
  return result;
}
