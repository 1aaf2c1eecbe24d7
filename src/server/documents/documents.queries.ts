import { and, asc, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import {
  checklistItem,
  documentFile,
  documentUpload,
  documentVersion,
  loan,
  loanParticipant,
  teamMember,
  uploadLink,
  user,
  type ChecklistItemRow,
  type DocumentVersionRow,
} from '../db/schema';

/** The item, locked for the rest of the transaction: versions are numbered and tags moved one at a time. */
export async function lockItem(db: Db, itemId: string): Promise<ChecklistItemRow | undefined> {
  const [row] = await db.select().from(checklistItem).where(eq(checklistItem.id, itemId)).for('update');
  return row;
}

export async function findUpload(db: Db, uploadId: string) {
  const [row] = await db.select().from(documentUpload).where(eq(documentUpload.id, uploadId));
  return row;
}

export async function lockUpload(db: Db, uploadId: string) {
  const [row] = await db.select().from(documentUpload).where(eq(documentUpload.id, uploadId)).for('update');
  return row;
}

export const uploadFiles = (db: Db, uploadId: string) =>
  db.select().from(documentFile).where(eq(documentFile.uploadId, uploadId)).orderBy(asc(documentFile.position), desc(documentFile.createdAt));

export async function findVersion(db: Db, versionId: string) {
  const [row] = await db.select().from(documentVersion).where(eq(documentVersion.id, versionId));
  return row;
}

export async function newestVersion(db: Db, itemId: string) {
  const [row] = await db.select().from(documentVersion).where(eq(documentVersion.itemId, itemId)).orderBy(desc(documentVersion.number)).limit(1);
  return row;
}

export async function findFile(db: Db, fileId: string) {
  const [row] = await db.select().from(documentFile).where(eq(documentFile.id, fileId));
  return row;
}

/** An item's versions, newest first, each with its files in order and its uploader's current name when they have an account. */
export async function itemVersions(db: Db, itemId: string) {
  const versions = await db
    .select({ version: documentVersion, accountName: user.name })
    .from(documentVersion)
    .leftJoin(user, eq(user.id, documentVersion.uploadedBy))
    .where(eq(documentVersion.itemId, itemId))
    .orderBy(desc(documentVersion.number));
  const files =
    versions.length === 0
      ? []
      : await db
          .select()
          .from(documentFile)
          .where(
            inArray(
              documentFile.versionId,
              versions.map(({ version }) => version.id),
            ),
          )
          .orderBy(asc(documentFile.position));
  return versions.map(({ version, accountName }) => ({ version, accountName, files: files.filter((file) => file.versionId === version.id) }));
}

export async function nextVersionNumber(db: Db, itemId: string): Promise<number> {
  const [row] = await db
    .select({ next: sql<number>`coalesce(max(${documentVersion.number}), 0)::int + 1` })
    .from(documentVersion)
    .where(eq(documentVersion.itemId, itemId));
  return row?.next ?? 1;
}

/** Who on the team to tell about an upload: the loan's assignee. */
export async function loanForMail(db: Db, loanId: string) {
  const [row] = await db
    .select({ loan, assigneeName: user.name, assigneeEmail: user.email })
    .from(loan)
    .leftJoin(user, eq(user.id, loan.assigneeId))
    .where(eq(loan.id, loanId));
  return row;
}

/** Files of an upload no longer wanted: their object keys (deleted after the rows are gone). */
export async function deleteUploadRows(db: Db, uploadId: string) {
  const files = await db
    .delete(documentFile)
    .where(and(eq(documentFile.uploadId, uploadId), isNull(documentFile.versionId)))
    .returning({
      objectKey: documentFile.objectKey,
    });
  await db.delete(documentUpload).where(eq(documentUpload.id, uploadId));
  return files.map((file) => file.objectKey);
}

/** The team a loan belongs to (its audit rows are that team's). */
export async function loanTeamId(db: Db, loanId: string): Promise<string | null> {
  const [row] = await db.select({ teamId: loan.teamId }).from(loan).where(eq(loan.id, loanId));
  return row?.teamId ?? null;
}

/**
 * Uses up a third party's link as its upload completes: only a link still
 * unused, not withdrawn and not expired. False when another upload used it
 * first (or it ran out meanwhile).
 */
export async function markLinkUsed(db: Db, linkId: string): Promise<boolean> {
  const rows = await db
    .update(uploadLink)
    .set({ usedAt: sql`now()` })
    .where(and(eq(uploadLink.id, linkId), isNull(uploadLink.usedAt), isNull(uploadLink.revokedAt), gt(uploadLink.expiresAt, sql`now()`)))
    .returning({ id: uploadLink.id });
  return rows.length === 1;
}

/**
 * Who uploaded a version, to be told of its review: a person still on the
 * loan in the capacity they uploaded in (a borrower removed from it, or a
 * team member who left the team, hears nothing), or the third party's link.
 */
export async function uploaderOf(
  db: Db,
  version: DocumentVersionRow,
  teamId: string,
): Promise<{ kind: 'user'; userId: string; name: string; email: string } | { kind: 'link'; name: string; email: string } | undefined> {
  if (version.uploadedByLink) {
    const [link] = await db.select({ name: uploadLink.name, email: uploadLink.email }).from(uploadLink).where(eq(uploadLink.id, version.uploadedByLink));
    return link && { kind: 'link', ...link };
  }
  if (!version.uploadedBy) return undefined;
  const stillThere =
    version.uploadedAs === 'team'
      ? db
          .select({ id: teamMember.userId })
          .from(teamMember)
          .where(and(eq(teamMember.teamId, teamId), eq(teamMember.userId, version.uploadedBy)))
      : db
          .select({ id: loanParticipant.userId })
          .from(loanParticipant)
          .where(and(eq(loanParticipant.loanId, version.loanId), eq(loanParticipant.userId, version.uploadedBy)));
  if ((await stillThere).length === 0) return undefined;
  const [person] = await db.select({ userId: user.id, name: user.name, email: user.email }).from(user).where(eq(user.id, version.uploadedBy));
  return person && { kind: 'user', ...person };
}
