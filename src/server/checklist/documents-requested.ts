import { and, asc, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import { formatPropertyAddress } from '../../shared/domain/loan-fields';
import { findTeam } from '../accounts/accounts.queries';
import type { JobContext } from '../app-context';
import type { Db } from '../db/client';
import { checklistItem, loan, loanParticipant, user, type ChecklistItemRow } from '../db/schema';
import { enqueueJob } from '../platform/jobs/outbox';
import type { JobHandler } from '../platform/jobs/worker';
import { noticePaths } from '../../shared/domain/notifications';
import { notify } from '../notifications/notify';
import { teamMailBrand } from '../teams/team-brand';
import { documentsRequestedMail } from './checklist.mail';

/**
 * "Documents requested" (issue 16): the loan's borrowers hear of the items
 * asked of them, at most one mail per person per loan within 15 minutes of
 * the last request — later requests join it. Each request enqueues, per
 * borrower, a job keyed by loan and person that runs 15 minutes later; a
 * request while it waits moves it and adds its items (the outbox's
 * deduplication key). The job writes the mail from the checklist as it is
 * then: only items still requested, so nothing stale is sent.
 */
export const DOCUMENTS_REQUESTED_QUEUE = 'checklist.documents-requested';
export const REQUEST_MAIL_DELAY_MS = 15 * 60_000;

/** An item that asks the loan's borrowers for a document: theirs to provide, shown to them, and requested. */
export const asksBorrowers = (item: Pick<ChecklistItemRow, 'provider' | 'borrowerVisible' | 'status'>) =>
  item.provider === 'borrower' && item.borrowerVisible && item.status === 'requested';

const PayloadSchema = z.object({ loanId: z.uuid(), userId: z.string().min(1), itemIds: z.array(z.uuid()) });

/** Notes, in the caller's transaction, that `items` were just requested: each borrower's mail waits for more. */
export async function noteDocumentsRequested(tx: Db, loanId: string, items: ChecklistItemRow[], now = Date.now()) {
  const itemIds = items.filter(asksBorrowers).map((item) => item.id);
  if (itemIds.length === 0) return;
  const people = await tx.select({ userId: loanParticipant.userId }).from(loanParticipant).where(eq(loanParticipant.loanId, loanId));
  for (const { userId } of people) {
    await enqueueJob(
      tx,
      DOCUMENTS_REQUESTED_QUEUE,
      { loanId, userId, itemIds },
      { dedupKey: `${loanId}:${userId}`, runAt: new Date(now + REQUEST_MAIL_DELAY_MS), mergeArrays: ['itemIds'] },
    );
  }
}

/** Writes the mail from what is true when it runs: the person still on the loan, the items still asked of them. */
export function documentsRequestedJob({ db, config }: Pick<JobContext, 'db' | 'config'>): JobHandler {
  return async (payload) => {
    const { loanId, userId, itemIds } = PayloadSchema.parse(payload);
    const [person] = await db
      .select({ name: user.name, email: user.email })
      .from(loanParticipant)
      .innerJoin(user, eq(user.id, loanParticipant.userId))
      .where(and(eq(loanParticipant.loanId, loanId), eq(loanParticipant.userId, userId)));
    if (!person || itemIds.length === 0) return;
    const items = (
      await db
        .select()
        .from(checklistItem)
        .where(and(eq(checklistItem.loanId, loanId), inArray(checklistItem.id, itemIds)))
        .orderBy(asc(checklistItem.position))
    ).filter(asksBorrowers);
    const [row] = await db.select().from(loan).where(eq(loan.id, loanId));
    const team = row && (await findTeam(db, row.teamId));
    if (items.length === 0 || !row || !team) return;
    const context = { publicUrl: config.publicUrl, brand: teamMailBrand(team, config.publicUrl) };
    const mail = documentsRequestedMail(person, { id: row.id, property: formatPropertyAddress(row) }, items, context);
    const title = items.length === 1 ? `${team.name} needs ${items[0]!.label} from you` : `${team.name} needs ${items.length} documents from you`;
    await db.transaction((tx) =>
      notify(
        tx,
        {
          userId,
          email: person.email,
          kind: 'documents_requested',
          loanId,
          audience: 'shared',
          inbox: { title, body: row.propertyStreet, path: noticePaths.loan(loanId) },
          mail,
        },
        config,
      ),
    );
  };
}
