import { describe, expect, it } from 'vitest';
import { borrowerItemLabel, borrowerItemState, ITEM_STATUSES, type ItemStatus } from './checklist-status';

describe("a borrower's item states", () => {
  it('reads every tag as one of four states', () => {
    const expected: Record<ItemStatus, string> = {
      requested: 'Needed',
      uploaded: 'Sent — waiting for review',
      in_review: 'Sent — waiting for review',
      needs_revision: 'Needs a new version: Page 2 is missing',
      expired: 'Needs a new version: Page 2 is missing',
      approved: 'Done',
      waived: 'Done',
      // A borrower's own claim waits for the team until it is confirmed.
      not_applicable: 'Sent — waiting for review',
    };
    for (const status of ITEM_STATUSES) {
      expect(borrowerItemLabel({ status, notApplicableConfirmed: false, reason: 'Page 2 is missing' }), status).toBe(expected[status]);
    }
    expect(new Set(ITEM_STATUSES.map((status) => borrowerItemState(status)))).toEqual(new Set(['needed', 'sent', 'new_version', 'done']));
  });

  it('says Done once the team confirms "not applicable", and needs no reason to ask for a new version', () => {
    expect(borrowerItemLabel({ status: 'not_applicable', notApplicableConfirmed: true, reason: 'No HOA' })).toBe('Done');
    expect(borrowerItemLabel({ status: 'needs_revision', reason: null })).toBe('Needs a new version');
    // Only the state that asks for a new version carries the reason: a waiver's reason is not a status.
    expect(borrowerItemLabel({ status: 'waived', reason: 'The lender waived it' })).toBe('Done');
  });
});
