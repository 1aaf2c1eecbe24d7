import { and, eq, isNull } from 'drizzle-orm';
import type { Readable } from 'node:stream';
import { ITEM_STATUS_LABELS, nextItemStatus, type ItemAction } from '../../shared/domain/checklist-status';
import { CONVERTED_PREVIEW_TYPES, INLINE_PREVIEW_TYPES, UPLOAD_IDLE_MS, type DocumentType } from '../../shared/domain/documents';
import { AppError } from '../../shared/errors';
import type { StartUpload, StoredFileView, UploadView, VersionView, VersionsView } from '../../shared/schemas/documents';
import { recordActivity } from '../activity/activity-log';
import { expireDocuments, todayUtc } from '../checklist/expiry';
import type { AppContext } from '../app-context';
import type { Db } from '../db/client';
import {
  checklistItem,
  documentFile,
  documentUpload,
  documentVersion,
  type ChecklistItemRow,
  type DocumentFileRow,
  type DocumentVersionRow,
} from '../db/schema';
import { findTeam } from '../accounts/accounts.queries';
import { FileTooLarge } from '../platform/files/file-vault';
import { noticePaths } from '../../shared/domain/notifications';
import { notify } from '../notifications/notify';
import { teamMailBrand } from '../teams/team-brand';
import { reviewMail, uploadedMail, type ReviewOutcome } from './documents.mail';
import { createInspector, safeFileName } from './inspect';
import { assertWithinUploadQuota } from './upload-quota';
import { refreshLoanDocumentCounts } from '../checklist/document-counts';
import { enqueuePreviews, needsConvertedPreview } from './previews';
import { owedAgain } from '../reminders/owed-again';
import * as q from './documents.queries';

type Deps = Pick<AppContext, 'db' | 'files' | 'config' | 'publicUrl'>;

/**
 * Who is uploading or reviewing: a signed-in person (team member or borrower
 * on the loan), or the holder of a third party's upload link.
 */
export type Actor =
  { kind: 'user'; userId: string; name: string; email: string; as: 'team' | 'borrower' } | { kind: 'link'; linkId: string; name: string; email: string };

const actorId = (actor: Actor) => (actor.kind === 'user' ? actor.userId : null);

const itemGone = () => new AppError('not_found', 'This checklist item does not exist');
const stale = () => new AppError('conflict', 'This item was changed by someone else meanwhile. Reload to see it.');

async function mustLockItem(tx: Db, loanId: string, itemId: string): Promise<ChecklistItemRow> {
  const row = await q.lockItem(tx, itemId);
  if (!row || row.loanId !== loanId) throw itemGone();
  return row;
}

/** An item takes a new version unless it is settled (approved, waived, not applicable): the team reopens it first. */
function assertTakesUploads(item: ChecklistItemRow) {
  if (!nextItemStatus(item.status, 'upload')) {
    throw new AppError('conflict', `This item is ${ITEM_STATUS_LABELS[item.status].toLowerCase()}: it takes no new version unless the team asks for it again.`);
  }
}

function uploadView(upload: typeof documentUpload.$inferSelect, stored: Pick<DocumentFileRow, 'position'>[], maxFileBytes: number): UploadView {
  const have = new Set(stored.map((file) => file.position));
  return {
    id: upload.id,
    itemId: upload.itemId,
    files: upload.files.map((file, index) => ({ position: index + 1, name: file.name, size: file.size, stored: have.has(index + 1) })),
    maxFileBytes,
    expiresAt: upload.expiresAt.toISOString(),
  };
}

/** Announces the files of a new version; each is then sent on its own (storeFile) and the version made at once (completeUpload). */
export async function startUpload(deps: Deps, actor: Actor, loanId: string, itemId: string, input: StartUpload): Promise<UploadView> {
  const max = deps.config.maxUploadBytes;
  const tooBig = input.files.findIndex((file) => file.size > max);
  if (tooBig >= 0) {
    throw new AppError('payload_too_large', `${input.files[tooBig]!.name} is larger than ${Math.floor(max / (1024 * 1024))} MB, the most one file may be`);
  }
  return deps.db.transaction(async (tx) => {
    const item = await mustLockItem(tx, loanId, itemId);
    assertTakesUploads(item);
    const holder = actor.kind === 'link' ? { kind: 'link' as const, linkId: actor.linkId } : { kind: 'user' as const, userId: actor.userId };
    await assertWithinUploadQuota(
      tx,
      deps.config.uploadQuota,
      holder,
      input.files.reduce((sum, file) => sum + file.size, 0),
    );
    const [upload] = await tx
      .insert(documentUpload)
      .values({
        loanId,
        itemId,
        createdBy: actorId(actor),
        linkId: actor.kind === 'link' ? actor.linkId : null,
        files: input.files.map(({ name, size }) => ({ name, size })),
        expiresAt: new Date(Date.now() + UPLOAD_IDLE_MS),
      })
      .returning();
    return uploadView(upload!, [], max);
  });
}

/** Whether `actor` is the one who started `upload` (no one else may send to it, complete or cancel it). */
export function isUploadOf(upload: { createdBy: string | null; linkId: string | null }, actor: Actor) {
  return actor.kind === 'user' ? upload.createdBy === actor.userId : upload.linkId === actor.linkId;
}

async function mustFindUpload(db: Db, actor: Actor, itemId: string, uploadId: string, lock = false) {
  const upload = lock ? await q.lockUpload(db, uploadId) : await q.findUpload(db, uploadId);
  if (!upload || upload.itemId !== itemId || !isUploadOf(upload, actor)) throw new AppError('not_found', 'This upload does not exist');
  if (upload.expiresAt.getTime() < Date.now()) throw new AppError('gone', 'This upload was not finished in time; start it again');
  return upload;
}

/**
 * Stores file `position` of an upload from `body`: the bytes are checked
 * (type from the content, size) and encrypted as they stream, the object is
 * written, and only then the row that points at it. A file sent again
 * (retry) replaces the one before it. Anything refused leaves nothing behind.
 */
export async function storeFile(
  deps: Deps,
  actor: Actor,
  ids: { loanId: string; itemId: string; uploadId: string; position: number },
  body: Readable,
  declaredLength: number | null,
): Promise<StoredFileView> {
  const upload = await mustFindUpload(deps.db, actor, ids.itemId, ids.uploadId);
  const announced = upload.files[ids.position - 1];
  if (!announced) throw new AppError('not_found', `This upload has ${upload.files.length} file(s); there is no file ${ids.position}`);
  const max = deps.config.maxUploadBytes;
  if (declaredLength !== null && declaredLength > max) throw tooLarge(max);
  const inspector = createInspector({ size: announced.size });
  let stored;
  try {
    stored = await deps.files.store(body, {
      prefix: `files/${ids.loanId}`,
      maxBytes: Math.min(max, announced.size),
      inspect: (chunk) => inspector.update(chunk),
    });
  } catch (error) {
    if (error instanceof FileTooLarge) {
      throw announced.size < max ? new AppError('bad_request', `${announced.name} is larger than the ${announced.size} bytes announced`) : tooLarge(max);
    }
    throw error;
  }
  try {
    if (stored.size !== announced.size)
      throw new AppError('bad_request', `${announced.name} arrived with ${stored.size} bytes, not the ${announced.size} announced: it was cut off`);
    const type = await inspector.finish();
    const row = await deps.db.transaction(async (tx) => {
      const current = await mustFindUpload(tx, actor, ids.itemId, ids.uploadId, true);
      // Each file that arrives gives the upload its idle time again; one left alone is swept (FILE_QUEUES.expireUploads).
      await tx
        .update(documentUpload)
        .set({ expiresAt: new Date(Date.now() + UPLOAD_IDLE_MS) })
        .where(eq(documentUpload.id, current.id));
      const replaced = await tx
        .delete(documentFile)
        .where(and(eq(documentFile.uploadId, current.id), eq(documentFile.position, ids.position), isNull(documentFile.versionId)))
        .returning({ objectKey: documentFile.objectKey });
      const [inserted] = await tx
        .insert(documentFile)
        .values({
          loanId: ids.loanId,
          itemId: ids.itemId,
          uploadId: current.id,
          position: ids.position,
          name: safeFileName(announced.name, type),
          size: stored.size,
          contentType: type,
          sha256: stored.sha256,
          objectKey: stored.objectKey,
          wrappedKey: stored.wrappedKey,
        })
        .returning();
      return { inserted: inserted!, replaced: replaced.map((file) => file.objectKey) };
    });
    // The rows no longer point at them: gone now, or by the sweep if this fails.
    await Promise.all(row.replaced.map((key) => deps.files.delete(key).catch(() => {})));
    return fileView(row.inserted);
  } catch (error) {
    await deps.files.delete(stored.objectKey).catch(() => {});
    throw error;
  }
}

const tooLarge = (max: number) => new AppError('payload_too_large', `A file may be at most ${Math.floor(max / (1024 * 1024))} MB`);

export function fileView(row: DocumentFileRow): StoredFileView {
  const type = row.contentType as DocumentType;
  const converting = needsConvertedPreview(row) && row.previewObjectKey === null && row.previewUnavailable === null;
  return {
    id: row.id,
    position: row.position,
    name: row.name,
    size: row.size,
    type,
    sha256: row.sha256,
    previewable: INLINE_PREVIEW_TYPES.includes(type) || (CONVERTED_PREVIEW_TYPES.includes(type) && row.previewObjectKey !== null),
    previewPending: converting,
  };
}

export interface CompletedUpload {
  version: VersionView;
  item: ChecklistItemRow;
}

/** Makes the upload's files a new version of the item, at once: all of them or nothing. */
export async function completeUpload(deps: Deps, actor: Actor, loanId: string, itemId: string, uploadId: string): Promise<CompletedUpload> {
  return deps.db.transaction(async (tx) => {
    const item = await mustLockItem(tx, loanId, itemId);
    const upload = await mustFindUpload(tx, actor, itemId, uploadId, true);
    // A third party's link is single-use: the version it completes uses it up, in this transaction.
    if (actor.kind === 'link' && !(await q.markLinkUsed(tx, actor.linkId))) throw new AppError('gone', 'This link was already used');
    const files = await q.uploadFiles(tx, upload.id);
    const missing = upload.files.findIndex((_file, index) => !files.some((file) => file.position === index + 1));
    if (missing >= 0) throw new AppError('conflict', `${upload.files[missing]!.name} has not arrived yet: send it, then finish the upload`);
    assertTakesUploads(item);
    const number = await q.nextVersionNumber(tx, itemId);
    const [version] = await tx
      .insert(documentVersion)
      .values({
        loanId,
        itemId,
        number,
        uploadedBy: actorId(actor),
        uploadedByLink: actor.kind === 'link' ? actor.linkId : null,
        uploaderName: actor.name,
        uploadedAs: actor.kind === 'link' ? 'third_party' : actor.as,
      })
      .returning();
    const moved = await tx.update(documentFile).set({ versionId: version!.id, uploadId: null }).where(eq(documentFile.uploadId, upload.id)).returning();
    await tx.delete(documentUpload).where(eq(documentUpload.id, upload.id));
    await enqueuePreviews(tx, moved);
    const updated = await moveItem(tx, item, 'upload', { reason: null, documentDate: null });
    await recordActivity(tx, loanId, {
      actorId: actorId(actor),
      kind: 'document.uploaded',
      visibility: item.borrowerVisible ? 'shared' : 'internal',
      data: {
        itemId,
        label: item.label,
        versionNumber: number,
        fileCount: moved.length,
        uploadedAs: actor.kind === 'link' ? 'third_party' : actor.as,
        // A borrower's own upload reads with their name; the team's and a third party's as the team (borrowerActivityActor).
        byName: actor.kind === 'user' && actor.as === 'borrower' ? actor.name : null,
        // For the team only (not in the borrowers' allow-list): whose link it came through.
        ...(actor.kind === 'link' ? { linkId: actor.linkId, thirdPartyName: actor.name } : {}),
      },
    });
    await mailAssignee(deps, tx, { loanId, itemId, itemLabel: item.label, versionNumber: number, fileCount: moved.length, actor });
    const view = versionView({ version: version!, accountName: actor.name, files: moved.sort((a, b) => a.position - b.position) });
    return { version: view, item: updated };
  });
}

/** The loan's mails go out in its team's name and colours. */
async function mailContext(deps: Deps, tx: Db, loanId: string) {
  const found = await q.loanForMail(tx, loanId);
  const team = found && (await findTeam(tx, found.loan.teamId));
  return found && team ? { ...found, context: { publicUrl: deps.publicUrl, brand: teamMailBrand(team, deps.publicUrl) } } : undefined;
}

/** Tells the loan's assignee a version arrived, unless they uploaded it themselves (or nobody is assigned). */
async function mailAssignee(
  deps: Deps,
  tx: Db,
  {
    loanId,
    itemId,
    itemLabel,
    versionNumber,
    fileCount,
    actor,
  }: { loanId: string; itemId: string; itemLabel: string; versionNumber: number; fileCount: number; actor: Actor },
) {
  const found = await mailContext(deps, tx, loanId);
  const assigneeId = found?.loan.assigneeId;
  if (!found || !assigneeId || !found.assigneeEmail || (actor.kind === 'user' && actor.userId === assigneeId)) return;
  const to = { name: found.assigneeName ?? found.assigneeEmail, email: found.assigneeEmail };
  await notify(
    tx,
    {
      userId: assigneeId,
      email: to.email,
      kind: 'document_uploaded',
      loanId,
      // The assignee hears of it as the team: who uploaded (a third party by name), and about any item, internal ones too.
      audience: 'team',
      inbox: {
        title: `${actor.name} uploaded ${itemLabel}`,
        body: `${found.loan.borrowerName}, ${found.loan.propertyStreet}`,
        path: noticePaths.item(loanId, itemId),
      },
      mail: uploadedMail(to, found.loan, { itemLabel, versionNumber, fileCount, uploaderName: actor.name }, found.context),
    },
    deps.config,
  );
}

/**
 * Tells whoever uploaded a version how its review went, unless they reviewed
 * it themselves. A borrower hears nothing of an item since made internal: they
 * may not know it exists any more.
 */
async function mailUploader(deps: Deps, tx: Db, version: DocumentVersionRow, item: ChecklistItemRow, outcome: ReviewOutcome, reviewer: Reviewer) {
  if (version.uploadedBy === reviewer.userId) return;
  if (version.uploadedAs === 'borrower' && !item.borrowerVisible) return;
  const found = await mailContext(deps, tx, version.loanId);
  const uploader = found && (await q.uploaderOf(tx, version, found.loan.teamId));
  if (!found || !uploader) return;
  const title = outcome.kind === 'approved' ? `${item.label} approved` : `${item.label} needs a new version`;
  await notify(
    tx,
    {
      // A third party has no account: the mail only, without an inbox row or an unsubscribe.
      userId: uploader.kind === 'user' ? uploader.userId : null,
      email: uploader.email,
      kind: outcome.kind,
      loanId: version.loanId,
      // A borrower's upload of an item they see: theirs to read as a borrower; the team's own upload: the team's.
      audience: version.uploadedAs === 'borrower' ? 'shared' : 'team',
      inbox: { title, ...(outcome.kind === 'needs_revision' ? { body: outcome.reason } : {}), path: noticePaths.item(version.loanId, item.id) },
      mail: reviewMail(uploader, found.loan, { itemLabel: item.label, versionNumber: version.number, outcome }, found.context),
    },
    deps.config,
  );
}

/** Gives up an upload: its stored files go, and no version is made. */
export async function cancelUpload(deps: Deps, actor: Actor, itemId: string, uploadId: string): Promise<void> {
  const keys = await deps.db.transaction(async (tx) => {
    const upload = await q.lockUpload(tx, uploadId);
    if (!upload || upload.itemId !== itemId || !isUploadOf(upload, actor)) throw new AppError('not_found', 'This upload does not exist');
    return q.deleteUploadRows(tx, upload.id);
  });
  await Promise.all(keys.map((key) => deps.files.delete(key).catch(() => {})));
}

async function moveItem(tx: Db, item: ChecklistItemRow, action: ItemAction, values: Partial<ChecklistItemRow>, by: string | null = null) {
  const next = nextItemStatus(item.status, action);
  if (!next) throw new AppError('conflict', `This item is ${ITEM_STATUS_LABELS[item.status].toLowerCase()}: it cannot be ${action.replace(/-/g, ' ')} now.`);
  const [row] = await tx
    .update(checklistItem)
    .set({ ...values, status: next, updatedBy: by, updatedAt: new Date(), version: item.version + 1 })
    .where(eq(checklistItem.id, item.id))
    .returning();
  // The loan's progress and the pipeline's outstanding documents count this tag.
  await refreshLoanDocumentCounts(tx, item.loanId);
  return row!;
}

function versionView({ version, accountName, files }: Awaited<ReturnType<typeof q.itemVersions>>[number]): VersionView {
  return {
    id: version.id,
    itemId: version.itemId,
    number: version.number,
    uploadedAt: version.createdAt.toISOString(),
    uploadedBy: accountName ?? version.uploaderName,
    files: files.map(fileView),
    review: version.review,
    reviewReason: version.reviewReason,
    reviewedAt: version.reviewedAt?.toISOString() ?? null,
    documentDate: version.documentDate,
  };
}

/**
 * The item's versions, newest first. A borrower reads what the team or a
 * third party uploaded as the team's name (decision 010: no team member's
 * name reaches a borrower), their own and their co-borrowers' by name.
 */
export async function listVersions(db: Db, itemId: string, audience: { kind: 'team' } | { kind: 'borrowers'; teamName: string }): Promise<VersionsView> {
  const versions = await q.itemVersions(db, itemId);
  return {
    versions: versions.map((entry) => {
      const view = versionView(entry);
      if (audience.kind === 'team') return view;
      return { ...view, uploadedBy: entry.version.uploadedAs === 'borrower' ? view.uploadedBy : audience.teamName };
    }),
  };
}

async function reviewTarget(tx: Db, loanId: string, itemId: string, versionId: string, itemVersion: number) {
  const item = await mustLockItem(tx, loanId, itemId);
  if (item.version !== itemVersion) throw stale();
  const version = await q.findVersion(tx, versionId);
  if (!version || version.itemId !== itemId) throw new AppError('not_found', 'This version does not exist');
  const newest = await q.newestVersion(tx, itemId);
  if (newest?.id !== version.id) throw new AppError('conflict', `Version ${version.number} is not the newest: review version ${newest?.number}`);
  return { item, version };
}

export interface Reviewer {
  userId: string;
  name: string;
}

/** The team opens the newest version for review: Uploaded → In review (nothing changes when it already is). */
export async function openForReview(deps: Deps, reviewer: Reviewer, ids: { loanId: string; itemId: string; versionId: string }, itemVersion: number) {
  return deps.db.transaction(async (tx) => {
    const { item, version } = await reviewTarget(tx, ids.loanId, ids.itemId, ids.versionId, itemVersion);
    if (item.status !== 'uploaded' || version.review !== 'pending') return { item, versionId: version.id };
    await tx.update(documentVersion).set({ review: 'in_review' }).where(eq(documentVersion.id, version.id));
    const updated = await moveItem(tx, item, 'open-for-review', {}, reviewer.userId);
    await recordActivity(tx, ids.loanId, {
      actorId: reviewer.userId,
      kind: 'document.review_started',
      visibility: item.borrowerVisible ? 'shared' : 'internal',
      data: { itemId: item.id, label: item.label, versionNumber: version.number },
    });
    return { item: updated, versionId: version.id };
  });
}

export async function approveVersion(
  deps: Deps,
  reviewer: Reviewer,
  ids: { loanId: string; itemId: string; versionId: string },
  input: { version: number; documentDate: string },
) {
  return deps.db.transaction(async (tx) => {
    const { item, version } = await reviewTarget(tx, ids.loanId, ids.itemId, ids.versionId, input.version);
    const updated = await moveItem(tx, item, 'approve', { reason: null, documentDate: input.documentDate }, reviewer.userId);
    await tx
      .update(documentVersion)
      .set({ review: 'approved', reviewReason: null, reviewedBy: reviewer.userId, reviewedAt: new Date(), documentDate: input.documentDate })
      .where(eq(documentVersion.id, version.id));
    await recordActivity(tx, ids.loanId, {
      actorId: reviewer.userId,
      kind: 'document.approved',
      visibility: item.borrowerVisible ? 'shared' : 'internal',
      data: { itemId: item.id, label: item.label, versionNumber: version.number, documentDate: input.documentDate },
    });
    await mailUploader(deps, tx, version, item, { kind: 'approved' }, reviewer);
    // A document already too old for the closing is approved (it is the right document) and expires at once.
    const today = todayUtc();
    const [expired] = await expireDocuments(tx, today, { itemId: item.id });
    if (!expired) return { item: updated, version: { ...version, review: 'approved' as const }, notice: null };
    const until = expired.mustBeGoodOn > today ? `before the closing on ${expired.mustBeGoodOn}` : 'which has passed';
    return {
      item: { ...updated, status: expired.status, version: expired.version },
      version: { ...version, review: 'approved' as const },
      notice: `Approved, but this document is good only through ${expired.validThrough}, ${until}: it is expired. Ask for a newer one.`,
    };
  });
}

export async function requestRevision(
  deps: Deps,
  reviewer: Reviewer,
  ids: { loanId: string; itemId: string; versionId: string },
  input: { version: number; reason: string },
) {
  return deps.db.transaction(async (tx) => {
    const { item, version } = await reviewTarget(tx, ids.loanId, ids.itemId, ids.versionId, input.version);
    // Owed again: its reminders start over.
    const updated = await moveItem(tx, item, 'request-revision', { reason: input.reason, documentDate: null, ...owedAgain() }, reviewer.userId);
    await tx
      .update(documentVersion)
      .set({ review: 'needs_revision', reviewReason: input.reason, reviewedBy: reviewer.userId, reviewedAt: new Date(), documentDate: null })
      .where(eq(documentVersion.id, version.id));
    await recordActivity(tx, ids.loanId, {
      actorId: reviewer.userId,
      kind: 'document.needs_revision',
      visibility: item.borrowerVisible ? 'shared' : 'internal',
      data: { itemId: item.id, label: item.label, versionNumber: version.number, reason: input.reason },
    });
    await mailUploader(deps, tx, version, item, { kind: 'needs_revision', reason: input.reason }, reviewer);
    return { item: updated, version };
  });
}
