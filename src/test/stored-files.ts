import { Readable } from 'node:stream';
import { and, asc, eq, sql } from 'drizzle-orm';
import { checklistItem, documentFile, documentUpload, documentVersion, type DocumentFileRow } from '../server/db/schema';
import type { Api } from './api';

/**
 * Stored files for tests of what lies under documents (rotation, the sweep,
 * the proof of encryption): each file goes through the app's FileVault, and
 * its rows are written after, as the upload routes write them. Tests of the
 * documents feature itself upload through its routes instead.
 */

interface FileInput {
  loanId: string;
  /** The loan's first checklist item when not given. */
  itemId?: string;
  bytes: Buffer;
  name?: string;
  contentType?: string;
}

async function itemOf(api: Pick<Api, 'db'>, input: FileInput): Promise<string> {
  if (input.itemId) return input.itemId;
  const [item] = await api.db
    .select({ id: checklistItem.id })
    .from(checklistItem)
    .where(eq(checklistItem.loanId, input.loanId))
    .orderBy(asc(checklistItem.position))
    .limit(1);
  if (!item) throw new Error('stored-files: the loan has no checklist item');
  return item.id;
}

async function storeBytes(api: Pick<Api, 'files'>, loanId: string, bytes: Buffer) {
  return api.files.store(Readable.from([bytes]), { prefix: `files/${loanId}`, maxBytes: bytes.length });
}

/** A one-file version of an item, its bytes stored encrypted; `preview` adds a stored preview to the file. */
export async function storeVersionFile(api: Pick<Api, 'db' | 'files'>, input: FileInput & { preview?: Buffer }): Promise<DocumentFileRow> {
  const itemId = await itemOf(api, input);
  const stored = await storeBytes(api, input.loanId, input.bytes);
  const preview = input.preview ? await storeBytes(api, input.loanId, input.preview) : undefined;
  return api.db.transaction(async (tx) => {
    const [version] = await tx
      .insert(documentVersion)
      .values({
        loanId: input.loanId,
        itemId,
        number: sql`(select coalesce(max(${documentVersion.number}), 0) + 1 from ${documentVersion} where ${documentVersion.itemId} = ${itemId})`,
        uploaderName: 'Test Uploader',
        uploadedAs: 'team',
      })
      .returning();
    const [file] = await tx
      .insert(documentFile)
      .values({
        loanId: input.loanId,
        itemId,
        versionId: version!.id,
        position: 0,
        name: input.name ?? 'document.pdf',
        size: stored.size,
        contentType: input.contentType ?? 'application/pdf',
        sha256: stored.sha256,
        objectKey: stored.objectKey,
        wrappedKey: stored.wrappedKey,
        ...(preview ? { previewObjectKey: preview.objectKey, previewWrappedKey: preview.wrappedKey, previewSize: preview.size } : {}),
      })
      .returning();
    return file!;
  });
}

/** A file of an upload still under way, which expires at `expiresAt`. */
export async function storeUploadFile(api: Pick<Api, 'db' | 'files'>, input: FileInput & { expiresAt: Date }): Promise<DocumentFileRow & { uploadId: string }> {
  const itemId = await itemOf(api, input);
  const stored = await storeBytes(api, input.loanId, input.bytes);
  return api.db.transaction(async (tx) => {
    const [upload] = await tx
      .insert(documentUpload)
      .values({ loanId: input.loanId, itemId, files: [{ name: input.name ?? 'document.pdf', size: input.bytes.length }], expiresAt: input.expiresAt })
      .returning();
    const [file] = await tx
      .insert(documentFile)
      .values({
        loanId: input.loanId,
        itemId,
        uploadId: upload!.id,
        position: 0,
        name: input.name ?? 'document.pdf',
        size: stored.size,
        contentType: input.contentType ?? 'application/pdf',
        sha256: stored.sha256,
        objectKey: stored.objectKey,
        wrappedKey: stored.wrappedKey,
      })
      .returning();
    return { ...file!, uploadId: upload!.id };
  });
}

/** The file rows of a loan, oldest first. */
export const filesOfLoan = (api: Pick<Api, 'db'>, loanId: string) =>
  api.db
    .select()
    .from(documentFile)
    .where(and(eq(documentFile.loanId, loanId)))
    .orderBy(asc(documentFile.createdAt), asc(documentFile.id));
