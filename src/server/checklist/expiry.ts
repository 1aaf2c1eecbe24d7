import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { EXIT_STAGES } from '../../shared/domain/loan-stages';
import { recordActivityOnLoans } from '../activity/activity-log';
import type { JobContext } from '../app-context';
import type { Db } from '../db/client';
import { checklistItem } from '../db/schema';
import { DAY_MS, type JobHandler, type RecurringJob } from '../platform/jobs/worker';
import { refreshLoanDocumentCounts } from './document-counts';

/*
 * Expired documents (PRODUCT.md §2): an approved document whose date plus its
 * item's validity falls before the day it must still be good on — the loan's
 * target closing date, or today when none is set or it has passed
 * (`isDocumentExpired` in shared/domain/checklist-status.ts says the same in
 * TypeScript). A funded, withdrawn, declined or archived loan's documents no
 * longer expire: it has closed, or is not going to.
 *
 * Applied by a daily recurring job, by an approval (a document already too
 * old is approved and expires at once), and when a loan's target closing
 * date changes. The checklist feature offers this module to the others.
 */

export const EXPIRY_QUEUE = 'checklist.expire';

/** Today's date, YYYY-MM-DD, as every date in Coverly is counted (UTC). */
export const todayUtc = (now = new Date()) => now.toISOString().slice(0, 10);

export interface ExpiredItem {
  id: string;
  loanId: string;
  label: string;
  status: 'expired';
  version: number;
  documentDate: string;
  validThrough: string;
  mustBeGoodOn: string;
}

/** Loans whose documents no longer expire: funded, exited, or archived. */
const closedStages = sql.raw(['funded', ...EXIT_STAGES].map((stage) => `'${stage}'`).join(', '));

/**
 * Moves every approved item whose document has expired by `today` to
 * Expired, with one `checklist.item_expired` activity row each (shared when
 * its borrowers see the item), in two statements whatever the number of
 * items: one for the items, one for the activity of all their loans. Narrowed
 * to one loan or one item when asked. Runs in a transaction of its own, or
 * in the caller's (as a savepoint). Returns what expired.
 */
export async function expireDocuments(db: Db, today: string, scope: { loanId?: string; itemId?: string } = {}): Promise<ExpiredItem[]> {
  return db.transaction(async (tx) => {
    const result = (await tx.execute(sql`
      update checklist_item c
         set status = 'expired', version = c.version + 1, updated_at = now(), updated_by = null,
             -- Why, on the item's line for the team and its borrowers (an upload or a reopening clears it).
             reason = 'This document, dated ' || to_char(c.document_date, 'YYYY-MM-DD')
                      || ', is good only through ' || to_char(c.document_date + c.validity_days, 'YYYY-MM-DD')
                      || case when coalesce(l.target_closing_date, ${today}::date) > ${today}::date
                              then ', before the closing on ' || to_char(l.target_closing_date, 'YYYY-MM-DD')
                              else ', which has passed' end
                      || '. A newer one is needed.',
             -- Owed again (reminders/owed-again.ts): its reminders start over.
             reminders_sent = 0, last_reminded_at = null, requested_at = now()
        from loan l
       where l.id = c.loan_id
         and c.status = 'approved'
         and c.validity_days is not null
         and c.document_date is not null
         and l.stage not in (${closedStages})
         and l.archived_at is null
         and c.document_date + c.validity_days < greatest(coalesce(l.target_closing_date, ${today}::date), ${today}::date)
         ${scope.loanId ? sql`and c.loan_id = ${scope.loanId}` : sql``}
         ${scope.itemId ? sql`and c.id = ${scope.itemId}` : sql``}
   returning c.id, c.loan_id, c.label, c.borrower_visible, c.version,
             to_char(c.document_date, 'YYYY-MM-DD') as document_date,
             to_char(c.document_date + c.validity_days, 'YYYY-MM-DD') as valid_through,
             to_char(greatest(coalesce(l.target_closing_date, ${today}::date), ${today}::date), 'YYYY-MM-DD') as must_be_good_on`)) as unknown as {
      rows: {
        id: string;
        loan_id: string;
        label: string;
        borrower_visible: boolean;
        version: number;
        document_date: string;
        valid_through: string;
        must_be_good_on: string;
      }[];
    };
    // In a stable order, so each loan's rows are numbered the same way whatever order the update found them in.
    const rows = result.rows.sort((a, b) => (a.loan_id === b.loan_id ? (a.id < b.id ? -1 : 1) : a.loan_id < b.loan_id ? -1 : 1));
    await recordActivityOnLoans(
      tx,
      rows.map((row) => ({
        loanId: row.loan_id,
        actorId: null,
        kind: 'checklist.item_expired',
        visibility: row.borrower_visible ? 'shared' : 'internal',
        data: { itemId: row.id, label: row.label, documentDate: row.document_date, validThrough: row.valid_through, mustBeGoodOn: row.must_be_good_on },
      })),
    );
    // Expired items no longer count as approved: the loans' progress and outstanding documents follow.
    for (const loanId of new Set(rows.map((row) => row.loan_id))) await refreshLoanDocumentCounts(tx, loanId);
    return rows.map((row) => ({
      id: row.id,
      loanId: row.loan_id,
      label: row.label,
      status: 'expired' as const,
      version: Number(row.version),
      documentDate: row.document_date,
      validThrough: row.valid_through,
      mustBeGoodOn: row.must_be_good_on,
    }));
  });
}

/**
 * Locks the loan's approved items that can expire, ahead of a change to the
 * loan that will re-check them: every other writer locks an item before its
 * loan (the activity row updates the loan), so taking them in that order too
 * keeps the two from waiting on each other.
 */
export async function lockExpiringItems(tx: Db, loanId: string) {
  await tx
    .select({ id: checklistItem.id })
    .from(checklistItem)
    .where(and(eq(checklistItem.loanId, loanId), eq(checklistItem.status, 'approved'), isNotNull(checklistItem.validityDays)))
    .orderBy(checklistItem.id)
    .for('update');
}

/** The daily run, a recurring job of the checklist feature: everything expired by today. */
export const EXPIRY_RECURRING: RecurringJob = { queue: EXPIRY_QUEUE, everyMs: DAY_MS, maxAttempts: 5 };

export function expiryJobHandler({ db, logger }: Pick<JobContext, 'db' | 'logger'>): JobHandler {
  return async () => {
    const expired = await expireDocuments(db, todayUtc());
    if (expired.length > 0) logger.info({ expired: expired.length, loans: new Set(expired.map((item) => item.loanId)).size }, 'expired documents');
  };
}
