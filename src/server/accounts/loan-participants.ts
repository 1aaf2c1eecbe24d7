import { count, eq } from 'drizzle-orm';
import type { LoanParticipantRole } from '../../shared/domain/access';
import { formatPropertyAddress } from '../../shared/domain/loan-fields';
import type { Db } from '../db/client';
import { recordActivity } from '../activity/activity-log';
import { loan, loanParticipant, user } from '../db/schema';
import { signalInbox } from '../platform/realtime/signals';

/**
 * Grants a person one loan as borrower or co-borrower (accepting a loan
 * invitation), with the shared activity row, in the caller's transaction.
 * Accepting a second invitation to the same loan keeps the first role.
 */
export async function joinLoan(
  tx: Db,
  { loanId, userId, role, invitedBy }: { loanId: string; userId: string; role: LoanParticipantRole; invitedBy: string | null },
) {
  const inserted = await tx
    .insert(loanParticipant)
    .values({ loanId, userId, role, invitedBy })
    .onConflictDoNothing()
    .returning({ userId: loanParticipant.userId });
  if (inserted.length === 0) return;
  const [person] = await tx.select({ name: user.name }).from(user).where(eq(user.id, userId));
  await recordActivity(tx, loanId, { actorId: userId, kind: 'participant.joined', visibility: 'shared', data: { name: person?.name ?? '', role } });
  // Rows of the loan written for borrowers show again to someone invited back: their open streams get the new count.
  await signalInbox(tx, userId);
}

/** How many loans a person follows (GET /api/me: whether the app shows "My loans"). */
export async function countParticipantLoans(db: Db, userId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(loanParticipant).where(eq(loanParticipant.userId, userId));
  return row?.n ?? 0;
}

/** The loan's property address, for the invitation page. */
export async function loanPropertyOf(db: Db, loanId: string): Promise<string | undefined> {
  const [row] = await db
    .select({
      propertyStreet: loan.propertyStreet,
      propertyUnit: loan.propertyUnit,
      propertyCity: loan.propertyCity,
      propertyState: loan.propertyState,
      propertyZip: loan.propertyZip,
    })
    .from(loan)
    .where(eq(loan.id, loanId));
  return row ? formatPropertyAddress(row) : undefined;
}
