import { sql } from 'drizzle-orm';
import { bigint, check, date, index, integer, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { PREVIEW_UNAVAILABLE_REASONS, UPLOADER_KINDS, VERSION_REVIEWS } from '../../../shared/domain/documents';
import { user } from './auth';
import { checklistItem } from './checklist';
import { loan } from './loans';
import { bytea } from './teams';

const inList = (values: readonly string[]) => sql.raw(values.map((value) => `'${value}'`).join(', '));

/**
 * A single-use, expiring upload link for a third party (title company,
 * insurance agent, appraiser) who has no account: it can upload one version
 * to one item and read nothing else. Only the SHA-256 of its token is kept.
 */
export const uploadLink = pgTable(
  'upload_link',
  {
    id: uuid().primaryKey().defaultRandom(),
    loanId: uuid()
      .notNull()
      .references(() => loan.id, { onDelete: 'cascade' }),
    itemId: uuid()
      .notNull()
      .references(() => checklistItem.id, { onDelete: 'cascade' }),
    email: text().notNull(),
    name: text().notNull(),
    tokenHash: text().notNull().unique(),
    createdBy: text().references(() => user.id, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    revokedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('upload_link_item_idx').on(t.itemId)],
);

/**
 * An upload under way: the files a person said they would send to an item,
 * stored one by one (document_file rows with this upload_id) until the upload
 * is completed into a version. An upload never completed is swept with its
 * objects after `expires_at`; none of it is ever shown as a version.
 */
export const documentUpload = pgTable('document_upload', {
  id: uuid().primaryKey().defaultRandom(),
  loanId: uuid()
    .notNull()
    .references(() => loan.id, { onDelete: 'cascade' }),
  itemId: uuid()
    .notNull()
    .references(() => checklistItem.id, { onDelete: 'cascade' }),
  /** Who is uploading: a signed-in person, or the holder of an upload link. */
  createdBy: text().references(() => user.id, { onDelete: 'cascade' }),
  linkId: uuid().references(() => uploadLink.id, { onDelete: 'cascade' }),
  /** The files announced, in order: name and size as the browser said. */
  files: jsonb().$type<{ name: string; size: number }[]>().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp({ withTimezone: true }).notNull(),
});

/**
 * One upload of one or more files to a checklist item. Versions are numbered
 * per item from 1 and never deleted while the item lives; each has its own
 * review (approved with the document's date, or needs revision with the
 * reason the borrower sees).
 */
export const documentVersion = pgTable(
  'document_version',
  {
    id: uuid().primaryKey().defaultRandom(),
    loanId: uuid()
      .notNull()
      .references(() => loan.id, { onDelete: 'cascade' }),
    itemId: uuid()
      .notNull()
      .references(() => checklistItem.id, { onDelete: 'cascade' }),
    number: integer().notNull(),
    uploadedBy: text().references(() => user.id, { onDelete: 'set null' }),
    uploadedByLink: uuid().references(() => uploadLink.id, { onDelete: 'set null' }),
    /** The uploader's name when they uploaded (a third party's as the team entered it). */
    uploaderName: text().notNull(),
    /** In which capacity: a team member, a borrower on the loan, or a third party's link (a borrower reads only theirs by name). */
    uploadedAs: text({ enum: UPLOADER_KINDS }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    review: text({ enum: VERSION_REVIEWS }).notNull().default('pending'),
    reviewReason: text(),
    reviewedBy: text().references(() => user.id, { onDelete: 'set null' }),
    reviewedAt: timestamp({ withTimezone: true }),
    /** The approved document's own date, from which the item's validity runs. */
    documentDate: date({ mode: 'string' }),
  },
  (t) => [
    unique('document_version_item_number').on(t.itemId, t.number),
    index('document_version_loan_idx').on(t.loanId),
    check('document_version_review_check', sql`${t.review} in (${inList(VERSION_REVIEWS)})`),
    check('document_version_uploaded_as_check', sql`${t.uploadedAs} in (${inList(UPLOADER_KINDS)})`),
  ],
);

/**
 * One stored file: of an upload under way (upload_id) or of a version
 * (version_id), never both. The bytes are in the object store, encrypted; the
 * row keeps the wrapped data key. Written only after the object is durable.
 */
export const documentFile = pgTable(
  'document_file',
  {
    id: uuid().primaryKey().defaultRandom(),
    loanId: uuid()
      .notNull()
      .references(() => loan.id, { onDelete: 'cascade' }),
    itemId: uuid()
      .notNull()
      .references(() => checklistItem.id, { onDelete: 'cascade' }),
    uploadId: uuid().references(() => documentUpload.id, { onDelete: 'cascade' }),
    versionId: uuid().references(() => documentVersion.id, { onDelete: 'cascade' }),
    position: integer().notNull(),
    name: text().notNull(),
    size: bigint({ mode: 'number' }).notNull(),
    contentType: text().notNull(),
    sha256: text().notNull(),
    objectKey: text().notNull().unique(),
    wrappedKey: bytea().notNull(),
    /** A JPEG made in the background for types a browser cannot show (HEIC, TIFF). */
    previewObjectKey: text().unique(),
    previewWrappedKey: bytea(),
    previewSize: bigint({ mode: 'number' }),
    /** Set when no preview will be made (shared/domain/documents.ts): the page offers the download instead. */
    previewUnavailable: text({ enum: PREVIEW_UNAVAILABLE_REASONS }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('document_file_version_idx').on(t.versionId, t.position),
    index('document_file_upload_idx').on(t.uploadId, t.position),
    index('document_file_loan_idx').on(t.loanId),
    check('document_file_one_owner', sql`(${t.uploadId} is null) <> (${t.versionId} is null)`),
    check('document_file_preview_unavailable_check', sql`${t.previewUnavailable} in (${inList(PREVIEW_UNAVAILABLE_REASONS)})`),
  ],
);
export type DocumentFileRow = typeof documentFile.$inferSelect;
export type DocumentVersionRow = typeof documentVersion.$inferSelect;
export type DocumentUploadRow = typeof documentUpload.$inferSelect;
export type UploadLinkRow = typeof uploadLink.$inferSelect;
