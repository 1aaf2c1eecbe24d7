import { and, eq, sql } from 'drizzle-orm';
import { recordActivityOnLoans } from '../activity/activity-log';
import type { Db } from '../db/client';
import { loan } from '../db/schema';

/**
 * Takes a member who leaves a team off the team's loans assigned to them, in
 * the caller's transaction (the one that removes them): each loan goes to
 * `to` (another member the owner chose) or to nobody, its version moves on (an
 * edit opened before is stale), and its activity says so (`loan.assigned`, by
 * the owner who removed them). Nothing of a loan is mailed to someone who is
 * no longer its assignee. Returns how many loans moved.
 */
export async function releaseAssignments(
  tx: Db,
  { teamId, userId, to, by }: { teamId: string; userId: string; to: { id: string; name: string } | null; by: string },
): Promise<number> {
  const moved = await tx
    .update(loan)
    .set({ assigneeId: to?.id ?? null, version: sql`${loan.version} + 1`, updatedAt: sql`now()` })
    .where(and(eq(loan.teamId, teamId), eq(loan.assigneeId, userId)))
    .returning({ id: loan.id });
  await recordActivityOnLoans(
    tx,
    moved.map(({ id }) => ({ loanId: id, actorId: by, kind: 'loan.assigned', visibility: 'internal' as const, data: { to: to?.name ?? null } })),
  );
  return moved.length;
}
