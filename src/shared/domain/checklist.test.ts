import { describe, expect, it } from 'vitest';
import { checklistChanges, checklistFor, DSCR_TEMPLATE } from './checklist-templates';
import { documentCounts, isDocumentExpired, isItemSettled, itemStanding, ITEM_ACTIONS, ITEM_STATUSES, nextItemStatus } from './checklist-status';
import { LOAN_PURPOSES, PROPERTY_TYPES } from './loan-fields';

const keysFor = (purpose: (typeof LOAN_PURPOSES)[number], type: (typeof PROPERTY_TYPES)[number]) =>
  checklistFor(DSCR_TEMPLATE, purpose, type).map((item) => item.key);

describe('the DSCR checklist template', () => {
  it('has unique keys and no item without a label', () => {
    const keys = DSCR_TEMPLATE.map((item) => item.key);
    expect(new Set(keys).size).toBe(keys.length);
    for (const item of DSCR_TEMPLATE) expect(item.label.trim(), item.key).not.toBe('');
  });

  it('gives every deal its common documents, and each purpose and property type its own', () => {
    const common = [
      'application-1003',
      'government-id',
      'articles-of-organization',
      'operating-agreement',
      'ein-letter',
      'good-standing',
      'business-purpose-affidavit',
      'non-owner-occupancy',
      'credit-authorization',
      'real-estate-owned',
      'bank-statements',
      'hazard-insurance',
      'flood-certificate',
      'title-commitment',
    ];
    for (const purpose of LOAN_PURPOSES)
      for (const type of PROPERTY_TYPES) {
        const keys = keysFor(purpose, type);
        for (const key of common) expect(keys, `${purpose} ${type}`).toContain(key);
        expect(
          keys.filter((key) => key.startsWith('appraisal-')),
          `${purpose} ${type}: one appraisal`,
        ).toHaveLength(1);
        expect(keys.includes('purchase-contract'), `${purpose} ${type}`).toBe(purpose === 'purchase');
        for (const key of ['mortgage-statement', 'payoff-statement', 'mortgage-verification'])
          expect(keys.includes(key), `${purpose} ${type} ${key}`).toBe(purpose !== 'purchase');
      }
    expect(keysFor('purchase', 'single_family')).toEqual(expect.arrayContaining(['leases', 'appraisal-1007']));
    expect(keysFor('purchase', 'single_family')).not.toContain('rent-roll');
    expect(keysFor('purchase', 'two_to_four')).toEqual(expect.arrayContaining(['leases', 'rent-roll', 'appraisal-1025']));
    expect(keysFor('cash_out_refinance', 'five_plus')).toEqual(expect.arrayContaining(['rent-roll', 'operating-statement-t12', 'appraisal-commercial']));
    expect(keysFor('purchase', 'condo')).toEqual(expect.arrayContaining(['hoa-questionnaire', 'appraisal-1007']));
    expect(keysFor('purchase', 'short_term_rental')).toEqual(expect.arrayContaining(['str-income-history', 'appraisal-1007']));
    expect(keysFor('purchase', 'short_term_rental')).not.toContain('leases');
    expect(keysFor('purchase', 'single_family')).not.toContain('hoa-questionnaire');
  });

  it('keeps the validity periods brokers expect', () => {
    const validity = Object.fromEntries(DSCR_TEMPLATE.map((item) => [item.key, item.validityDays]));
    expect(validity).toMatchObject({ 'bank-statements': 60, 'appraisal-1007': 120, 'credit-authorization': 90, 'flood-certificate': 90 });
  });

  it('offers what a changed deal lacks and names what no longer applies, removing nothing itself', () => {
    const have = keysFor('purchase', 'single_family');
    const { missing, noLongerApplies } = checklistChanges(DSCR_TEMPLATE, have, 'rate_term_refinance', 'two_to_four');
    expect(missing.map((item) => item.key).sort()).toEqual(['appraisal-1025', 'mortgage-statement', 'mortgage-verification', 'payoff-statement', 'rent-roll']);
    expect(noLongerApplies.sort()).toEqual(['appraisal-1007', 'purchase-contract']);
    expect(checklistChanges(DSCR_TEMPLATE, have, 'purchase', 'single_family')).toEqual({ missing: [], noLongerApplies: [] });
  });
});

describe('item status tags', () => {
  it.each([
    ['requested', 'upload', 'uploaded'],
    ['needs_revision', 'upload', 'uploaded'],
    ['uploaded', 'open-for-review', 'in_review'],
    ['in_review', 'approve', 'approved'],
    ['in_review', 'request-revision', 'needs_revision'],
    ['requested', 'waive', 'waived'],
    ['requested', 'claim-not-applicable', 'not_applicable'],
    ['not_applicable', 'reject-not-applicable', 'requested'],
    ['expired', 'upload', 'uploaded'],
    ['waived', 'reopen', 'requested'],
  ] as const)('%s --%s--> %s', (from, action, to) => {
    expect(nextItemStatus(from, action)).toBe(to);
  });

  it('refuses the moves nothing implies', () => {
    expect(nextItemStatus('requested', 'approve')).toBeNull();
    expect(nextItemStatus('approved', 'upload')).toBeNull();
    expect(nextItemStatus('waived', 'upload')).toBeNull();
    expect(nextItemStatus('approved', 'claim-not-applicable')).toBeNull();
    expect(nextItemStatus('requested', 'open-for-review')).toBeNull();
    // No action leads into Expired: only time does.
    for (const status of ITEM_STATUSES) for (const action of ITEM_ACTIONS) expect(nextItemStatus(status, action)).not.toBe('expired');
  });

  it('counts approved, waived and confirmed not-applicable items as settled', () => {
    expect(ITEM_STATUSES.filter((status) => isItemSettled(status))).toEqual(['approved', 'waived']);
    expect(isItemSettled('not_applicable', true)).toBe(true);
  });

  it('counts required items still needed, approved and outstanding; waived and confirmed not-applicable ones leave the count', () => {
    expect(ITEM_STATUSES.map((status) => [status, itemStanding(status)])).toEqual([
      ['requested', 'open'],
      ['uploaded', 'open'],
      ['in_review', 'open'],
      ['approved', 'approved'],
      ['needs_revision', 'open'],
      ['waived', 'dropped'],
      ['not_applicable', 'open'], // claimed by a borrower, not yet confirmed
      ['expired', 'open'],
    ]);
    expect(itemStanding('not_applicable', true)).toBe('dropped');
    const item = (status: (typeof ITEM_STATUSES)[number], required = true, notApplicableConfirmed = false) => ({ status, required, notApplicableConfirmed });
    expect(
      documentCounts([
        item('approved'),
        item('approved', false),
        item('requested'),
        item('expired'),
        item('waived'),
        item('not_applicable'),
        item('not_applicable', true, true),
        item('requested', false),
      ]),
    ).toEqual({ required: 4, approved: 1, outstanding: 3 });
    expect(documentCounts([])).toEqual({ required: 0, approved: 0, outstanding: 0 });
  });

  it('expires an approved document when its date plus validity falls before the day it must be good on', () => {
    expect(isDocumentExpired({ documentDate: '2026-09-01', validityDays: 60 }, '2026-10-31')).toBe(false);
    expect(isDocumentExpired({ documentDate: '2026-09-01', validityDays: 60 }, '2026-11-01')).toBe(true);
    expect(isDocumentExpired({ documentDate: '2024-01-01', validityDays: null }, '2026-11-01')).toBe(false);
    expect(isDocumentExpired({ documentDate: '2026-02-28', validityDays: 1 }, '2026-03-01')).toBe(false);
  });
});
