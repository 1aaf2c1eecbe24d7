import { z } from 'zod';
import { EVERYONE_ON_LOAN, TEAM_ON_LOAN, type LoanActionTable } from '../domain/access';
import type { DocumentType, VersionReview } from '../domain/documents';
import { MAX_FILES_PER_VERSION } from '../domain/documents';
import { CalendarDate } from './loans';
import { ItemIdParamsSchema } from './checklist';
import { text } from './text';

/**
 * Uploads, versions and their reviews: everyone on the loan uploads to and
 * reads the items they may see (borrowers: the borrower-visible ones); only
 * the team reviews.
 */
export const DOCUMENT_ACTIONS = {
  'upload-document': EVERYONE_ON_LOAN,
  'view-documents': EVERYONE_ON_LOAN,
  'review-documents': TEAM_ON_LOAN,
} as const satisfies LoanActionTable;

const id = (what: string) => z.uuid({ error: `Not ${what} id` }).transform((value) => value.toLowerCase());

export const UploadParamsSchema = ItemIdParamsSchema.extend({ uploadId: id('an upload') });
export const UploadFileParamsSchema = UploadParamsSchema.extend({
  position: z.coerce
    .number({ error: 'The file number must be a number' })
    .int({ error: 'The file number must be a whole number' })
    .min(1, { error: 'Files are numbered from 1' })
    .max(MAX_FILES_PER_VERSION, { error: `A version has at most ${MAX_FILES_PER_VERSION} files` }),
});
export const VersionParamsSchema = ItemIdParamsSchema.extend({ versionId: id('a version') });
export const FileParamsSchema = ItemIdParamsSchema.extend({ fileId: id('a file') });

const FileName = text('File name').trim().min(1, { error: 'Each file needs a name' }).max(1000, { error: 'File name must be at most 1000 characters' });

/** The files one is about to send as a new version, in order. */
export const StartUploadSchema = z.strictObject({
  files: z
    .array(
      z.strictObject({
        name: FileName,
        size: z
          .number({ error: 'size must be the file size in bytes' })
          .int({ error: 'size must be a whole number of bytes' })
          .min(1, { error: 'This file is empty' })
          .max(Number.MAX_SAFE_INTEGER),
      }),
      { error: 'files must list the files to upload' },
    )
    .min(1, { error: 'Choose at least one file' })
    .max(MAX_FILES_PER_VERSION, { error: `Upload at most ${MAX_FILES_PER_VERSION} files at once` }),
});
export type StartUpload = z.input<typeof StartUploadSchema>;

const ItemVersion = z.number({ error: 'version must be the item version you read' }).int().min(1);

export const ApproveVersionSchema = z.strictObject({
  version: ItemVersion,
  documentDate: CalendarDate("The document's date"),
});
export const RequestRevisionSchema = z.strictObject({
  version: ItemVersion,
  reason: text('Reason').trim().min(1, { error: 'Say what needs to change' }).max(1000, { error: 'Reason must be at most 1000 characters' }),
});
export const OpenVersionSchema = z.strictObject({ version: ItemVersion });

export interface UploadView {
  id: string;
  itemId: string;
  files: { position: number; name: string; size: number; stored: boolean }[];
  /** The most bytes one file may have. */
  maxFileBytes: number;
  expiresAt: string;
}

export interface StoredFileView {
  id: string;
  position: number;
  name: string;
  size: number;
  type: DocumentType;
  sha256: string;
  /** Whether the browser can show it (PDF, JPEG, PNG, or a converted preview is ready). */
  previewable: boolean;
  /** A HEIC or TIFF file whose JPEG preview is still being made: ask again shortly. False once it is ready or when there will be none. */
  previewPending: boolean;
}

export interface VersionView {
  id: string;
  itemId: string;
  number: number;
  uploadedAt: string;
  /** Who uploaded it: a name (a borrower reads the team's uploads as the team's name). */
  uploadedBy: string;
  files: StoredFileView[];
  review: VersionReview;
  reviewReason: string | null;
  reviewedAt: string | null;
  documentDate: string | null;
}

export interface VersionsView {
  versions: VersionView[];
}
