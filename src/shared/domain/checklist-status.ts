/**
 * A checklist item's status tag and the actions that move it (PRODUCT.md §2):
 * tags change only through the actions that imply them, never by being set.
 */

export const ITEM_STATUSES = ['requested', 'uploaded', 'in_review', 'approved', 'needs_revision', 'waived', 'not_applicable', 'expired'] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];

export const ITEM_STATUS_LABELS: Readonly<Record<ItemStatus, string>> = {
  requested: 'Requested',
  uploaded: 'Uploaded',
  in_review: 'In review',
  approved: 'Approved',
  needs_revision: 'Needs revision',
  waived: 'Waived',
  not_applicable: 'Not applicable',
  expired: 'Expired',
};

/**
 * upload: a new version arrives. open-for-review: the team opens the newest
 * version. approve / request-revision: the team's review of the newest
 * version. waive: the team no longer needs it. claim-not-applicable: the
 * borrower says it does not apply to them (pending until the team confirms
 * or sends it back). reopen: the team asks for it again (after a waiver, a
 * confirmed "not applicable", an expiry, or an approval it takes back).
 * expire: taken by time, never by a person: the approved document's date
 * plus the item's validity falls before the loan's closing
 * (`isDocumentExpired`; the server's expiry sweep and the approval apply it).
 */
export const ITEM_ACTIONS = [
  'upload',
  'open-for-review',
  'approve',
  'request-revision',
  'waive',
  'claim-not-applicable',
  'confirm-not-applicable',
  'reject-not-applicable',
  'reopen',
  'expire',
] as const;
export type ItemAction = (typeof ITEM_ACTIONS)[number];

/** From which tags each action may be taken, and the tag it leads to. */
const MOVES: Readonly<Record<ItemAction, { from: readonly ItemStatus[]; to: ItemStatus }>> = {
  upload: { from: ['requested', 'uploaded', 'in_review', 'needs_revision', 'expired'], to: 'uploaded' },
  'open-for-review': { from: ['uploaded'], to: 'in_review' },
  approve: { from: ['uploaded', 'in_review'], to: 'approved' },
  'request-revision': { from: ['uploaded', 'in_review', 'approved'], to: 'needs_revision' },
  waive: { from: ['requested', 'uploaded', 'in_review', 'needs_revision', 'expired', 'not_applicable'], to: 'waived' },
  'claim-not-applicable': { from: ['requested', 'needs_revision'], to: 'not_applicable' },
  'confirm-not-applicable': { from: ['not_applicable'], to: 'not_applicable' },
  'reject-not-applicable': { from: ['not_applicable'], to: 'requested' },
  reopen: { from: ['waived', 'not_applicable', 'expired', 'approved'], to: 'requested' },
  expire: { from: ['approved'], to: 'expired' },
};

/** The tag `action` leads to from `status`, or null when it cannot be taken from there. */
export function nextItemStatus(status: ItemStatus, action: ItemAction): ItemStatus | null {
  const move = MOVES[action];
  return move.from.includes(status) ? move.to : null;
}

/**
 * How an item stands for the loan's documents (decision 013): its document is
 * approved; it was dropped (waived by the team, or "not applicable" once the
 * team confirms the borrower's claim: no longer needed, so out of the count);
 * or it is still open. The tags of each are listed here once: the checklist
 * view, the pipeline's counters (their SQL is built from these lists, in
 * server/checklist/document-counts.ts) and the web all read them.
 */
export const APPROVED_STATUSES = ['approved'] as const satisfies readonly ItemStatus[];
export const DROPPED_STATUSES = ['waived'] as const satisfies readonly ItemStatus[];
/** Dropped only once the team confirms it: a borrower's claim alone is still open. */
export const DROPPED_WHEN_CONFIRMED_STATUSES = ['not_applicable'] as const satisfies readonly ItemStatus[];

export type ItemStanding = 'approved' | 'dropped' | 'open';

export function itemStanding(status: ItemStatus, notApplicableConfirmed = false): ItemStanding {
  if ((APPROVED_STATUSES as readonly ItemStatus[]).includes(status)) return 'approved';
  if ((DROPPED_STATUSES as readonly ItemStatus[]).includes(status)) return 'dropped';
  if ((DROPPED_WHEN_CONFIRMED_STATUSES as readonly ItemStatus[]).includes(status) && notApplicableConfirmed) return 'dropped';
  return 'open';
}

/** Done with: approved, waived, or confirmed not applicable. */
export const isItemSettled = (status: ItemStatus, notApplicableConfirmed = false) => itemStanding(status, notApplicableConfirmed) !== 'open';

/**
 * A loan's required documents, as its progress and the pipeline count them:
 * `required` the required items still needed (approved or open; dropped ones
 * leave the count), `approved` those approved, `outstanding` those open
 * (required − approved).
 */
export interface DocumentCounts {
  required: number;
  approved: number;
  outstanding: number;
}

export function documentCounts(items: readonly { required: boolean; status: ItemStatus; notApplicableConfirmed: boolean }[]): DocumentCounts {
  let approved = 0;
  let outstanding = 0;
  for (const item of items) {
    if (!item.required) continue;
    const standing = itemStanding(item.status, item.notApplicableConfirmed);
    if (standing === 'approved') approved += 1;
    else if (standing === 'open') outstanding += 1;
  }
  return { required: approved + outstanding, approved, outstanding };
}

/**
 * An approved document expires when its date plus the item's validity falls
 * before the day it must still be good on (the loan's target closing date, or
 * today when none is set or it has passed). Dates are YYYY-MM-DD.
 */
export function isDocumentExpired({ documentDate, validityDays }: { documentDate: string; validityDays: number | null }, mustBeGoodOn: string): boolean {
  if (validityDays === null) return false;
  const good = new Date(`${documentDate}T00:00:00Z`);
  good.setUTCDate(good.getUTCDate() + validityDays);
  return good.toISOString().slice(0, 10) < mustBeGoodOn;
}

/**
 * Where an item stands for a borrower: four states, never the team's eight
 * tags (issue 23). "Uploaded", "In review" and a claim the team has still to
 * confirm are all "sent" to them; a version sent back and an approval that
 * expired both ask for a new version, with the reason; approved, waived and
 * confirmed "not applicable" are done.
 */
export type BorrowerItemState = 'needed' | 'sent' | 'new_version' | 'done';

export const BORROWER_ITEM_STATE_LABELS: Readonly<Record<BorrowerItemState, string>> = {
  needed: 'Needed',
  sent: 'Sent — waiting for review',
  new_version: 'Needs a new version',
  done: 'Done',
};

export function borrowerItemState(status: ItemStatus, notApplicableConfirmed = false): BorrowerItemState {
  if (isItemSettled(status, notApplicableConfirmed)) return 'done';
  if (status === 'needs_revision' || status === 'expired') return 'new_version';
  if (status === 'uploaded' || status === 'in_review' || status === 'not_applicable') return 'sent';
  return 'needed';
}

/** The borrower's words for an item's state, every borrower-facing place the same: "Needs a new version: <reason>" with the reason when there is one. */
export function borrowerItemLabel(item: { status: ItemStatus; notApplicableConfirmed?: boolean; reason?: string | null }): string {
  const state = borrowerItemState(item.status, item.notApplicableConfirmed);
  const label = BORROWER_ITEM_STATE_LABELS[state];
  return state === 'new_version' && item.reason ? `${label}: ${item.reason}` : label;
}
