import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { checklistItem, documentFile, documentVersion, loan, team } from '../db/schema';

/** The loan with its team's name and DSCR bands (the loan page's thresholds). */
export async function findLoanAndTeam(db: Db, loanId: string) {
  const [row] = await db
    .select({ loan, teamName: team.name, strongCenti: team.dscrStrongCenti, eligibleCenti: team.dscrEligibleCenti })
    .from(loan)
    .innerJoin(team, eq(team.id, loan.teamId))
    .where(eq(loan.id, loanId));
  return row;
}

/** The loan's checklist in its order. */
export const checklistOf = (db: Db, loanId: string) =>
  db.select().from(checklistItem).where(eq(checklistItem.loanId, loanId)).orderBy(asc(checklistItem.position), asc(checklistItem.id));

/** Per item, the newest version whose review is approved (a later version sent back or still in review does not replace it). */
export const latestApprovedVersions = (db: Db, loanId: string) =>
  db
    .selectDistinctOn([documentVersion.itemId])
    .from(documentVersion)
    .where(and(eq(documentVersion.loanId, loanId), eq(documentVersion.review, 'approved')))
    .orderBy(documentVersion.itemId, desc(documentVersion.number));

/** The files of these versions, each version's in their order. */
export const filesOfVersions = (db: Db, versionIds: string[]) =>
  versionIds.length === 0
    ? Promise.resolve([])
    : db.select().from(documentFile).where(inArray(documentFile.versionId, versionIds)).orderBy(asc(documentFile.versionId), asc(documentFile.position));
