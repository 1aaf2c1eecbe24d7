import { eq, sql, type SQL } from 'drizzle-orm';
import { APPROVED_STATUSES, DROPPED_STATUSES, DROPPED_WHEN_CONFIRMED_STATUSES } from '../../shared/domain/checklist-status';
import type { Db } from '../db/client';
import { loan } from '../db/schema';

/**
 * The loan's document counters (`required_items`, `approved_items`, the same
 * two over borrower-visible items, and `outstanding_items` generated from
 * them), kept on the loan row so the pipeline reads and sorts them like any
 * other column (decision 013). The checklist feature offers this module to
 * every feature that changes an item's status, required flag, visibility or
 * existence: call `refreshLoanDocumentCounts` in the same transaction, after
 * the last change to the loan's items.
 */

const list = (values: readonly string[]) => values.map((value) => `'${value}'`).join(', ');

// The standings of shared/domain/checklist-status.ts (`documentCounts`), in SQL built from the same lists.
const stillNeeded = sql.raw(
  `c.required and not (c.status in (${list(DROPPED_STATUSES)}) or (c.status in (${list(DROPPED_WHEN_CONFIRMED_STATUSES)}) and c.not_applicable_confirmed))`,
);
const approved = sql.raw(`c.required and c.status in (${list(APPROVED_STATUSES)})`);

/** The four counts of the checklist items `c`, in the order of the loan's columns required, approved, borrower required, borrower approved. */
const itemCounts = sql`
  count(*) filter (where ${stillNeeded})::int,
  count(*) filter (where ${approved})::int,
  count(*) filter (where ${stillNeeded} and c.borrower_visible)::int,
  count(*) filter (where ${approved} and c.borrower_visible)::int`;

/** Recounts the items of every loan `where` selects (the loan is `loan`), in one statement. */
function recount(where: SQL, returning: SQL) {
  return sql`
    update ${loan}
       set (required_items, approved_items, borrower_required_items, borrower_approved_items) = (
             select ${itemCounts}
               from checklist_item c
              where c.loan_id = loan.id)
     where ${where}
 returning ${returning}`;
}

export interface LoanDocumentCounters {
  requiredItems: number;
  approvedItems: number;
  outstandingItems: number;
  borrowerRequiredItems: number;
  borrowerApprovedItems: number;
}

type CounterRow = {
  required_items: number;
  approved_items: number;
  outstanding_items: number;
  borrower_required_items: number;
  borrower_approved_items: number;
};

const countersOf = (row: CounterRow): LoanDocumentCounters => ({
  requiredItems: Number(row.required_items),
  approvedItems: Number(row.approved_items),
  outstandingItems: Number(row.outstanding_items),
  borrowerRequiredItems: Number(row.borrower_required_items),
  borrowerApprovedItems: Number(row.borrower_approved_items),
});

/**
 * Counts the loan's checklist again and writes the counters to its row, in
 * the caller's transaction; returns them (undefined when the loan is gone).
 * The loan's row is locked first, in a statement of its own: under READ
 * COMMITTED the count then runs on a snapshot taken after any other
 * transaction that counted this loan has committed, so two changes to two
 * items of one loan at once never leave a count that misses one of them.
 * Neither `version` nor the last activity time moves: a checklist change is
 * not an edit of the loan (the caller's activity row touches the latter).
 */
export async function refreshLoanDocumentCounts(tx: Db, loanId: string): Promise<LoanDocumentCounters | undefined> {
  const [locked] = await tx.select({ id: loan.id }).from(loan).where(eq(loan.id, loanId)).for('update');
  if (!locked) return undefined;
  const { rows } = (await tx.execute(
    recount(sql`loan.id = ${loanId}`, sql`required_items, approved_items, outstanding_items, borrower_required_items, borrower_approved_items`),
  )) as unknown as { rows: CounterRow[] };
  return rows[0] && countersOf(rows[0]);
}

/** A loan whose stored counters disagree with its checklist: what its row says, and what its items count. */
export interface DocumentCountDrift {
  loanId: string;
  teamId: string;
  stored: Omit<LoanDocumentCounters, 'outstandingItems'>;
  counted: Omit<LoanDocumentCounters, 'outstandingItems'>;
}

/**
 * The loans (of one team, or all) whose counters are not what their items
 * count now, in one statement that writes nothing: what
 * `npm run cli -- check-document-counts` reports. Safe while the server runs;
 * a checklist being changed at that moment may show until its transaction
 * commits.
 */
export async function findDocumentCountDrift(db: Db, { teamId }: { teamId?: string } = {}): Promise<DocumentCountDrift[]> {
  const { rows } = (await db.execute(sql`
    select l.id as loan_id, l.team_id,
           l.required_items, l.approved_items, l.borrower_required_items, l.borrower_approved_items,
           n.required, n.approved, n.borrower_required, n.borrower_approved
      from ${loan} l
     cross join lateral (
       select ${itemCounts}
         from checklist_item c
        where c.loan_id = l.id) n(required, approved, borrower_required, borrower_approved)
     where ${teamId ? sql`l.team_id = ${teamId}` : sql`true`}
       and (l.required_items, l.approved_items, l.borrower_required_items, l.borrower_approved_items)
           is distinct from (n.required, n.approved, n.borrower_required, n.borrower_approved)
     order by l.team_id, l.id`)) as unknown as { rows: Record<string, string | number>[] };
  return rows.map((row) => ({
    loanId: String(row.loan_id),
    teamId: String(row.team_id),
    stored: {
      requiredItems: Number(row.required_items),
      approvedItems: Number(row.approved_items),
      borrowerRequiredItems: Number(row.borrower_required_items),
      borrowerApprovedItems: Number(row.borrower_approved_items),
    },
    counted: {
      requiredItems: Number(row.required),
      approvedItems: Number(row.approved),
      borrowerRequiredItems: Number(row.borrower_required),
      borrowerApprovedItems: Number(row.borrower_approved),
    },
  }));
}

/**
 * `check-document-counts`: the loans whose counters drifted and, with `fix`,
 * each of them counted again (`refreshLoanDocumentCounts`, one transaction
 * per loan, so it may run beside the server). Returns the drift found.
 */
export async function checkDocumentCounts(db: Db, { fix = false, teamId }: { fix?: boolean; teamId?: string } = {}): Promise<DocumentCountDrift[]> {
  const drift = await findDocumentCountDrift(db, teamId ? { teamId } : {});
  if (fix) for (const { loanId } of drift) await db.transaction((tx) => refreshLoanDocumentCounts(tx, loanId));
  return drift;
}

/**
 * Counts every loan's checklist again (or every loan of one team): for data
 * written around the services (a bulk import, a hand edit, the benchmark's
 * seed) and `npm run cli -- refresh-document-counts`. Returns how many loans
 * it counted. Run it while nobody edits those checklists.
 */
export async function refreshAllDocumentCounts(db: Db, { teamId }: { teamId?: string } = {}): Promise<number> {
  const { rows } = (await db.execute(recount(teamId ? sql`loan.team_id = ${teamId}` : sql`true`, sql`1 as counted`))) as unknown as { rows: unknown[] };
  return rows.length;
}
