import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { loan, team, teamMember, user } from '../db/schema';

/** Where each loan's activity stands now, in both sequences, and its team's name (what borrowers read the team's doings as). */
export async function loanHeads(db: Db, loanIds: string[]) {
  if (loanIds.length === 0) return new Map<string, { seq: number; sharedSeq: number; teamName: string }>();
  const rows = await db
    .select({ loanId: loan.id, seq: loan.activitySeq, sharedSeq: loan.sharedActivitySeq, teamName: team.name })
    .from(loan)
    .innerJoin(team, eq(team.id, loan.teamId))
    .where(inArray(loan.id, loanIds));
  return new Map(rows.map((row) => [row.loanId, { seq: Number(row.seq), sharedSeq: Number(row.sharedSeq), teamName: row.teamName }]));
}

/** Who these viewers of a loan are: their names, and whether each is on the loan's team (else a borrower). */
export async function viewersOfLoan(db: Db, loanId: string, userIds: string[]) {
  if (userIds.length === 0) return [];
  return db
    .select({ id: user.id, name: user.name, teamRole: teamMember.role })
    .from(user)
    .innerJoin(loan, eq(loan.id, loanId))
    .leftJoin(teamMember, and(eq(teamMember.userId, user.id), eq(teamMember.teamId, loan.teamId)))
    .where(inArray(user.id, userIds));
}
