import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { NoticeAudience } from '../../shared/domain/notifications';
import type { Db } from '../db/client';
import { loan, loanParticipant, teamMember } from '../db/schema';

/**
 * Whether a person may read, now, what was written about a loan for
 * `audience` (decision 021): the loan's team reads both audiences, a borrower
 * or co-borrower of the loan the shared one only, anyone else neither. Read
 * from the memberships as they are when it runs, never from what the person
 * was when the notice was written: a team member who left the team and was
 * invited to the loan as a borrower reads what borrowers read.
 *
 * The one rule for the inbox (which rows show and count) and for every
 * notification mail (checked by the job that sends it).
 */
export function mayReadOnLoanSql(userId: SQLWrapper | string, loanId: SQLWrapper | string, audience: SQLWrapper | NoticeAudience): SQL {
  return sql`(exists (select 1 from ${loan} join ${teamMember} on ${teamMember.teamId} = ${loan.teamId}
                       where ${loan.id} = ${loanId} and ${teamMember.userId} = ${userId})
          or (${audience} = 'shared' and exists (select 1 from ${loanParticipant}
                       where ${loanParticipant.loanId} = ${loanId} and ${loanParticipant.userId} = ${userId})))`;
}

export interface LoanReader {
  userId: string;
  loanId: string;
  audience: NoticeAudience;
}

/** `mayReadOnLoanSql` for one person, loan and audience. */
export async function mayReadOnLoan(db: Db, { userId, loanId, audience }: LoanReader): Promise<boolean> {
  const result = (await db.execute(sql`select ${mayReadOnLoanSql(userId, sql`${loanId}::uuid`, audience)} as ok`)) as unknown as { rows: { ok: boolean }[] };
  return result.rows[0]?.ok === true;
}
