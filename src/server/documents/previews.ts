import { and, eq, isNull } from 'drizzle-orm';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { CONVERTED_PREVIEW_TYPES, type DocumentType, type PreviewUnavailableReason } from '../../shared/domain/documents';
import type { JobContext } from '../app-context';
import type { Db } from '../db/client';
import { documentFile, type DocumentFileRow } from '../db/schema';
import { PREVIEW_MAX_INPUT_BYTES, UnreadableImage, jpegPreview, type PreviewType } from '../platform/images/jpeg-preview';
import { enqueueJob } from '../platform/jobs/outbox';
import type { JobHandler } from '../platform/jobs/worker';
import * as q from './documents.queries';

/*
 * JPEG previews of HEIC and TIFF files (decision 017): a job per file, queued
 * in the transaction that makes its version, run by the worker after commit.
 * The preview is stored through the vault like every other object (encrypted,
 * `previews/<loanId>/…`), and its row written after the object, as uploads are.
 */

export const PREVIEW_QUEUE = 'documents.preview';
/** A file whose preview fails this many times is marked as having none (the page offers the download). */
export const PREVIEW_ATTEMPTS = 3;

const PreviewJobSchema = z.object({ fileId: z.uuid() });

export const needsConvertedPreview = (file: Pick<DocumentFileRow, 'contentType'>) => CONVERTED_PREVIEW_TYPES.includes(file.contentType as DocumentType);

/** Queues the preview of each HEIC or TIFF file among `files`, in the caller's transaction. */
export async function enqueuePreviews(tx: Db, files: Pick<DocumentFileRow, 'id' | 'contentType'>[]) {
  for (const file of files.filter(needsConvertedPreview)) await enqueueJob(tx, PREVIEW_QUEUE, { fileId: file.id }, { maxAttempts: PREVIEW_ATTEMPTS });
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const markUnavailable = (db: Db, fileId: string, reason: PreviewUnavailableReason) =>
  db
    .update(documentFile)
    .set({ previewUnavailable: reason })
    .where(and(eq(documentFile.id, fileId), isNull(documentFile.previewObjectKey)));

/**
 * Makes one file's preview. Nothing to do when the file is gone (its version
 * or loan deleted meanwhile) or already has its preview or a final "none". A
 * file past the size or pixel limits is marked `too_large` at once; content
 * the decoder refuses is tried PREVIEW_ATTEMPTS times (with the worker's
 * backoff), then marked `unreadable` and the job ends; any other failure on
 * the last try marks it `failed` and leaves the job dead for an admin to see
 * (run again, it tries once more).
 */
export function previewJobHandler({ db, files, logger }: Pick<JobContext, 'db' | 'files' | 'logger'>): JobHandler {
  return async (payload, job) => {
    const { fileId } = PreviewJobSchema.parse(payload);
    const file = await q.findFile(db, fileId);
    if (!file || file.versionId === null || !needsConvertedPreview(file) || file.previewObjectKey) return;
    if (file.previewUnavailable === 'too_large' || file.previewUnavailable === 'unreadable') return;
    if (file.size > PREVIEW_MAX_INPUT_BYTES) {
      await markUnavailable(db, fileId, 'too_large');
      return;
    }
    let preview;
    try {
      preview = await jpegPreview(await readAll(await files.open(file)), file.contentType as PreviewType);
    } catch (error) {
      if (job.attempts < job.maxAttempts) throw error;
      const unreadable = error instanceof UnreadableImage;
      await markUnavailable(db, fileId, unreadable ? 'unreadable' : 'failed');
      if (!unreadable) throw error;
      logger.warn({ fileId, err: error.message }, 'no preview: the decoder could not read this file');
      return;
    }
    if (preview.kind === 'too_large') {
      await markUnavailable(db, fileId, 'too_large');
      return;
    }
    const stored = await files.storeBuffer(preview.bytes, `previews/${file.loanId}`);
    const [row] = await db
      .update(documentFile)
      .set({ previewObjectKey: stored.objectKey, previewWrappedKey: stored.wrappedKey, previewSize: stored.size, previewUnavailable: null })
      .where(and(eq(documentFile.id, fileId), isNull(documentFile.previewObjectKey)))
      .returning({ id: documentFile.id });
    // The file went meanwhile (or another run was first): nothing points at this object, so it goes now.
    if (!row) await files.delete(stored.objectKey);
  };
}
