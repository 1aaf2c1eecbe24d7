import { desc, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { checklistItem, loan, team, uploadLink, user, type UploadLinkRow } from '../db/schema';

export async function insertLink(db: Db, values: typeof uploadLink.$inferInsert): Promise<UploadLinkRow> {
  const [row] = await db.insert(uploadLink).values(values).returning();
  return row!;
}

/** An item's links, newest first, each with the name of who sent it (while their account exists). */
export function itemLinks(db: Db, itemId: string) {
  return db
    .select({ link: uploadLink, sentBy: user.name })
    .from(uploadLink)
    .leftJoin(user, eq(user.id, uploadLink.createdBy))
    .where(eq(uploadLink.itemId, itemId))
    .orderBy(desc(uploadLink.createdAt), desc(uploadLink.id));
}

export async function findLink(db: Db, linkId: string) {
  const [row] = await db.select().from(uploadLink).where(eq(uploadLink.id, linkId));
  return row;
}

export async function lockLink(db: Db, linkId: string) {
  const [row] = await db.select().from(uploadLink).where(eq(uploadLink.id, linkId)).for('update');
  return row;
}

export async function revokeLink(db: Db, linkId: string) {
  const [row] = await db.update(uploadLink).set({ revokedAt: new Date() }).where(eq(uploadLink.id, linkId)).returning();
  return row!;
}

/** The link a token's hash names, with its team's name (a withdrawn or expired link's answer names who to ask). */
export async function linkByTokenHash(db: Db, tokenHash: string) {
  const [row] = await db
    .select({ link: uploadLink, teamName: team.name })
    .from(uploadLink)
    .innerJoin(loan, eq(loan.id, uploadLink.loanId))
    .innerJoin(team, eq(team.id, loan.teamId))
    .where(eq(uploadLink.tokenHash, tokenHash));
  return row;
}

/** What a link's holder is told: its item, its loan's city and state, and the team (for its name and logo). */
export async function linkScope(db: Db, linkId: string) {
  const [row] = await db
    .select({ link: uploadLink, item: checklistItem, propertyCity: loan.propertyCity, propertyState: loan.propertyState, teamId: loan.teamId })
    .from(uploadLink)
    .innerJoin(checklistItem, eq(checklistItem.id, uploadLink.itemId))
    .innerJoin(loan, eq(loan.id, uploadLink.loanId))
    .where(eq(uploadLink.id, linkId));
  return row;
}
