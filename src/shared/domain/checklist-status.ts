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

/** Done for the loan's progress: approved, waived, or confirmed not applicable. */
export const isItemSettled = (status: ItemStatus, notApplicableConfirmed = false) =>
  status === 'approved' || status === 'waived' || (status === 'not_applicable' && notApplicableConfirmed);

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
