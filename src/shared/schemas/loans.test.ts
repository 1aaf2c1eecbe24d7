import { describe, expect, it } from 'vitest';
import { CreateLoanSchema, isRealDate, loanIssues, PipelineQuerySchema, UpdateLoanSchema, type LoanInput } from './loans';

const valid = {
  borrowerName: 'Dana Borrower',
  propertyStreet: '1200 Barton Springs Rd',
  propertyCity: 'Austin',
  propertyState: 'TX',
  propertyZip: '78704',
  propertyType: 'single_family',
  purpose: 'purchase',
  valueCents: 400_000_00,
  loanAmountCents: 300_000_00,
  noteRatePercent: 7.25,
  monthlyRentCents: 2_900_00,
};

const fieldsOf = (input: unknown) => {
  const result = CreateLoanSchema.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => issue.path.join('.'));
};

describe('the loan schema', () => {
  it('fills in the defaults of a new loan', () => {
    const loan = CreateLoanSchema.parse(valid);
    expect(loan).toMatchObject({ termYears: 30, amortizationYears: 30, interestOnly: false, prepaymentKind: 'none', annualTaxesCents: 0, assigneeId: null });
  });

  it('keeps money in whole cents within bounds', () => {
    expect(fieldsOf({ ...valid, loanAmountCents: 300_000.5 })).toContain('loanAmountCents');
    expect(fieldsOf({ ...valid, loanAmountCents: 999_99 })).toContain('loanAmountCents');
    expect(fieldsOf({ ...valid, valueCents: 10_000_000_001 })).toContain('valueCents');
    expect(fieldsOf({ ...valid, annualTaxesCents: -1 })).toContain('annualTaxesCents');
    expect(fieldsOf({ ...valid, loanAmountCents: '300000' })).toContain('loanAmountCents');
  });

  it('bounds rates and percents to at most 3 decimals', () => {
    expect(fieldsOf({ ...valid, noteRatePercent: 0 })).toContain('noteRatePercent');
    expect(fieldsOf({ ...valid, noteRatePercent: 30.001 })).toContain('noteRatePercent');
    expect(fieldsOf({ ...valid, noteRatePercent: 7.1234 })).toContain('noteRatePercent');
    expect(fieldsOf({ ...valid, noteRatePercent: 7.125 })).toEqual([]);
    expect(fieldsOf({ ...valid, noteRatePercent: Number.NaN })).toContain('noteRatePercent');
    // Found by the property-based test: positive, but stored as 0 thousandths.
    expect(fieldsOf({ ...valid, noteRatePercent: 5e-324 })).toContain('noteRatePercent');
    expect(fieldsOf({ ...valid, noteRatePercent: 0.0004 })).toContain('noteRatePercent');
    expect(fieldsOf({ ...valid, noteRatePercent: 0.001 })).toEqual([]);
  });

  it('accepts real dates only', () => {
    expect(isRealDate('2028-02-29')).toBe(true);
    expect(isRealDate('2027-02-29')).toBe(false);
    expect(isRealDate('2027-13-01')).toBe(false);
    expect(fieldsOf({ ...valid, targetClosingDate: '2027-04-31' })).toContain('targetClosingDate');
    expect(fieldsOf({ ...valid, targetClosingDate: '1999-12-31' })).toContain('targetClosingDate');
    expect(fieldsOf({ ...valid, targetClosingDate: '2027-04-30' })).toEqual([]);
  });

  it('trims text, turns blanks into nothing, and refuses control characters', () => {
    const loan = CreateLoanSchema.parse({ ...valid, borrowerName: '  Dana  ', entityName: '   ', borrowerEmail: '' });
    expect(loan).toMatchObject({ borrowerName: 'Dana', entityName: null, borrowerEmail: null });
    expect(fieldsOf({ ...valid, borrowerName: 'a\u0000b' })).toContain('borrowerName');
    expect(fieldsOf({ ...valid, borrowerName: '   ' })).toContain('borrowerName');
    expect(fieldsOf({ ...valid, propertyZip: '7870' })).toContain('propertyZip');
    expect(fieldsOf({ ...valid, propertyZip: '78704-1234' })).toEqual([]);
    expect(fieldsOf({ ...valid, propertyState: 'ZZ' })).toContain('propertyState');
    expect(fieldsOf({ ...valid, surprise: 1 })).toContain('');
  });

  it('checks the rules between fields and names the field each one is about', () => {
    const base = CreateLoanSchema.parse(valid) as LoanInput;
    const issues = (change: Partial<LoanInput>) => loanIssues({ ...base, ...change }).map((issue) => issue.field);
    expect(issues({})).toEqual([]);
    expect(issues({ propertyType: 'two_to_four', unitCount: 3, unitRentsCents: [1, 2, 3] })).toEqual([]);
    expect(issues({ propertyType: 'two_to_four', unitCount: 3, unitRentsCents: [1, 2] })).toEqual(['unitRentsCents']);
    expect(issues({ propertyType: 'two_to_four', unitCount: 5 })).toEqual(['unitCount']);
    expect(issues({ propertyType: 'five_plus', unitCount: 4 })).toEqual(['unitCount']);
    expect(issues({ unitCount: 2 })).toEqual(['unitCount']);
    expect(issues({ unitRentsCents: [1] })).toEqual(['unitRentsCents']);
    expect(issues({ propertyType: 'short_term_rental' })).toEqual(['strAnnualRevenueCents']);
    expect(issues({ interestOnly: true })).toEqual(['interestOnlyMonths']);
    expect(issues({ interestOnly: true, interestOnlyMonths: 121, termYears: 10, amortizationYears: 30 })).toEqual(['interestOnlyMonths']);
    expect(issues({ interestOnly: false, interestOnlyMonths: 12 })).toEqual(['interestOnlyMonths']);
    expect(issues({ termYears: 30, amortizationYears: 25 })).toEqual(['amortizationYears']);
    expect(issues({ prepaymentKind: 'step_down' })).toEqual(['prepaymentYears']);
    expect(issues({ prepaymentYears: 3 })).toEqual(['prepaymentYears']);
    expect(issues({ loanAmountCents: base.valueCents + 1 })).toEqual(['loanAmountCents']);
  });

  it('takes edits of any fields with the version, and refuses an empty edit', () => {
    expect(UpdateLoanSchema.safeParse({ version: 3, loanAmountCents: 250_000_00 }).success).toBe(true);
    expect(UpdateLoanSchema.safeParse({ version: 3 }).success).toBe(false);
    expect(UpdateLoanSchema.safeParse({}).success).toBe(false);
    expect(UpdateLoanSchema.safeParse({ stage: 'funded' }).success).toBe(false);
  });

  it('reads the pipeline view from the address bar, with the defaults', () => {
    expect(PipelineQuerySchema.parse({})).toMatchObject({ status: 'open', sort: 'last_activity', page: 1, size: 50 });
    expect(PipelineQuerySchema.parse({ stage: 'lead,underwriting' }).stage).toEqual(['lead', 'underwriting']);
    expect(PipelineQuerySchema.parse({ stage: ['lead', 'funded'] }).stage).toEqual(['lead', 'funded']);
    expect(PipelineQuerySchema.safeParse({ stage: 'lead,nope' }).success).toBe(false);
    expect(PipelineQuerySchema.safeParse({ size: '1000' }).success).toBe(false);
    expect(PipelineQuerySchema.safeParse({ today: '2027-02-30' }).success).toBe(false);
  });
});
