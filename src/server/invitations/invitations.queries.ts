import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { invitation, platformAdmin, user, type Invitation, type InvitationRole } from '../db/schema';

export async function insertInvitation(
  db: Db,
  values: { email: string; role: InvitationRole; teamId: string | null; tokenHash: string; invitedBy: string | null; expiresAt: Date },
): Promise<Invitation> {
  const [row] = await db.insert(invitation).values(values).returning();
  if (!row) throw new Error('insertInvitation returned no row');
  return row;
}

export async function findInvitationByTokenHash(db: Db, tokenHash: string): Promise<Invitation | undefined> {
  const [row] = await db.select().from(invitation).where(eq(invitation.tokenHash, tokenHash));
  return row;
}

/** Marks the invitation used, once: null when it was used, withdrawn or has expired meanwhile. */
export async function claimInvitation(db: Db, id: string, userId: string): Promise<Invitation | null> {
  const [row] = await db
    .update(invitation)
    .set({ acceptedAt: sql`now()`, acceptedBy: userId })
    .where(and(eq(invitation.id, id), isNull(invitation.acceptedAt), isNull(invitation.revokedAt), gt(invitation.expiresAt, sql`now()`)))
    .returning();
  return row ?? null;
}

export async function findUserByEmail(db: Db, email: string) {
  const [row] = await db.select().from(user).where(eq(sql`lower(${user.email})`, email.toLowerCase()));
  return row;
}

export async function grantPlatformAdmin(db: Db, userId: string) {
  await db.insert(platformAdmin).values({ userId }).onConflictDoNothing();
}
