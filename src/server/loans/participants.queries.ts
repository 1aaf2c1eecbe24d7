import { and, count, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { invitation, loan, loanParticipant, team, user } from '../db/schema';

/** The loan's borrowers and co-borrowers, first joined first. */
export async function listParticipants(db: Db, loanId: string) {
  return db
    .select({ userId: user.id, name: user.name, email: user.email, role: loanParticipant.role, joinedAt: loanParticipant.createdAt })
    .from(loanParticipant)
    .innerJoin(user, eq(user.id, loanParticipant.userId))
    .where(eq(loanParticipant.loanId, loanId))
    .orderBy(loanParticipant.createdAt, user.id);
}

/** Whom a stage change is mailed to: the loan's borrowers and co-borrowers. */
export async function participantAddresses(db: Db, loanId: string) {
  return db
    .select({ userId: user.id, name: user.name, email: user.email })
    .from(loanParticipant)
    .innerJoin(user, eq(user.id, loanParticipant.userId))
    .where(eq(loanParticipant.loanId, loanId));
}

export async function findParticipant(db: Db, loanId: string, userId: string) {
  const [row] = await db
    .select({ userId: user.id, name: user.name, email: user.email, role: loanParticipant.role })
    .from(loanParticipant)
    .innerJoin(user, eq(user.id, loanParticipant.userId))
    .where(and(eq(loanParticipant.loanId, loanId), eq(loanParticipant.userId, userId)));
  return row;
}

export async function deleteParticipant(db: Db, loanId: string, userId: string) {
  await db.delete(loanParticipant).where(and(eq(loanParticipant.loanId, loanId), eq(loanParticipant.userId, userId)));
}

export async function findParticipantByEmail(db: Db, loanId: string, email: string) {
  const [row] = await db
    .select({ userId: user.id })
    .from(loanParticipant)
    .innerJoin(user, eq(user.id, loanParticipant.userId))
    .where(and(eq(loanParticipant.loanId, loanId), eq(sql`lower(${user.email})`, email.toLowerCase())));
  return row;
}

const open = (loanId: string) => and(eq(invitation.loanId, loanId), isNull(invitation.acceptedAt), isNull(invitation.revokedAt));

/** Invitations to the loan nobody has used or withdrawn, newest first (expired ones too, to send again). */
export async function listOpenLoanInvitations(db: Db, loanId: string) {
  return db
    .select({ id: invitation.id, email: invitation.email, role: invitation.role, createdAt: invitation.createdAt, expiresAt: invitation.expiresAt })
    .from(invitation)
    .where(open(loanId))
    .orderBy(desc(invitation.createdAt));
}

/** Withdraws open invitations to the loan: one by id, or every one to an address. Returns what it withdrew. */
export async function revokeLoanInvitations(db: Db, loanId: string, which: { id: string } | { email: string }) {
  return db
    .update(invitation)
    .set({ revokedAt: sql`now()` })
    .where(and(open(loanId), 'id' in which ? eq(invitation.id, which.id) : eq(sql`lower(${invitation.email})`, which.email.toLowerCase())))
    .returning({ id: invitation.id, email: invitation.email, role: invitation.role });
}

export async function countOpenLoanInvitations(db: Db, loanId: string) {
  const [row] = await db
    .select({ n: count() })
    .from(invitation)
    .where(and(open(loanId), gt(invitation.expiresAt, sql`now()`)));
  return row?.n ?? 0;
}

/** The loans a person follows as a borrower or co-borrower, with their teams, most recent activity first. */
export async function loansOfParticipant(db: Db, userId: string) {
  return db
    .select({
      loan: {
        id: loan.id,
        propertyStreet: loan.propertyStreet,
        propertyUnit: loan.propertyUnit,
        propertyCity: loan.propertyCity,
        propertyState: loan.propertyState,
        propertyZip: loan.propertyZip,
        loanAmountCents: loan.loanAmountCents,
        stage: loan.stage,
        leftFromStage: loan.leftFromStage,
        stageEnteredAt: loan.stageEnteredAt,
        borrowerRequiredItems: loan.borrowerRequiredItems,
        borrowerApprovedItems: loan.borrowerApprovedItems,
      },
      role: loanParticipant.role,
      team: { id: team.id, name: team.name, accentColor: team.accentColor, logoSha256: team.logoSha256 },
    })
    .from(loanParticipant)
    .innerJoin(loan, eq(loan.id, loanParticipant.loanId))
    .innerJoin(team, eq(team.id, loan.teamId))
    .where(eq(loanParticipant.userId, userId))
    .orderBy(desc(loan.lastActivityAt), loan.id);
}
