import { describe, expect, it } from 'vitest';
import { analyseLoan } from '../../../shared/domain/loan-dscr';
import { parseMoneyCents } from '../../../shared/money';
import {
  centsToDollars,
  changedLoanFields,
  dollarsToCents,
  formValuesOf,
  liveDscrFields,
  LoanFormSchema,
  newLoanValues,
  parsePercent,
  toLoanInput,
  type LoanFormValues,
} from './loan-form-values';

const filled = (overrides: Partial<LoanFormValues> = {}): LoanFormValues => ({
  ...newLoanValues(null),
  borrowerName: 'Dana Borrower',
  propertyStreet: '1200 Barton Springs Rd',
  propertyCity: 'Austin',
  propertyState: 'TX',
  propertyZip: '78704',
  valueCents: '400,000',
  loanAmountCents: '$300,000',
  noteRatePercent: '7.25',
  monthlyRentCents: '3,100',
  annualTaxesCents: '6,000',
  annualInsuranceCents: '1,800',
  ...overrides,
});

describe('dollars ↔ cents', () => {
  it('reads dollars as typed into whole cents, never through a float', () => {
    expect(dollarsToCents('300,000', 'Loan amount')).toEqual({ ok: true, value: 30_000_000 });
    expect(dollarsToCents(' $1,250.5 ', 'Rent')).toEqual({ ok: true, value: 125_050 });
    expect(dollarsToCents('0.29', 'Rent')).toEqual({ ok: true, value: 29 });
    expect(dollarsToCents('.07', 'Rent')).toEqual({ ok: true, value: 7 });
    // 4.35 * 100 is 434.99999999999994 in floating point.
    expect(dollarsToCents('4.35', 'Rent')).toEqual({ ok: true, value: 435 });
    expect(dollarsToCents('', 'Rent')).toEqual({ ok: true, value: null });
  });

  it('names the field when the text is not an amount', () => {
    expect(dollarsToCents('abc', 'Loan amount')).toEqual({ ok: false, message: 'Loan amount must be an amount in dollars, like 250,000' });
    expect(dollarsToCents('-5', 'Rent')).toEqual({ ok: false, message: 'Rent must be an amount in dollars, like 250,000' });
    expect(dollarsToCents('10.555', 'Rent')).toEqual({ ok: false, message: 'Rent takes whole cents (at most 2 decimals)' });
  });

  it('reads money by the one rule the calculator reads it by (shared/money.ts)', () => {
    const texts = ['300,000', '$1,234.56', ' $ 1234.5 ', '.5', '12.', '0', '1 000', '1,2,3', '3,00,000', '5$', '$$5', '1e5', '+5', '-5', '1.005', '1.500'];
    for (const text of texts) {
      const shared = parseMoneyCents(text);
      expect(dollarsToCents(text, 'Rent').ok, text).toBe(shared.ok);
      if (shared.ok) expect(dollarsToCents(text, 'Rent'), text).toEqual({ ok: true, value: shared.value });
    }
  });

  it('writes cents back as dollars, with cents only when there are some', () => {
    expect(centsToDollars(30_000_000)).toBe('300,000');
    expect(centsToDollars(125_050)).toBe('1,250.50');
    expect(centsToDollars(0)).toBe('0');
    expect(centsToDollars(null)).toBe('');
    for (const cents of [1, 99, 100, 435, 125_050, 30_000_000, 9_999_999_999])
      expect(dollarsToCents(centsToDollars(cents), 'x')).toEqual({ ok: true, value: cents });
  });
});

describe('percents', () => {
  it('reads percents as percents: 7.25 means 7.25 %', () => {
    expect(parsePercent('7.25', 'Note rate')).toEqual({ ok: true, value: 7.25 });
    expect(parsePercent('7.125 %', 'Note rate')).toEqual({ ok: true, value: 7.125 });
    expect(parsePercent('', 'Note rate')).toEqual({ ok: true, value: null });
    expect(parsePercent('seven', 'Note rate')).toEqual({ ok: false, message: 'Note rate must be a percentage, like 7.25' });
  });
});

describe('the loan form ↔ the API input', () => {
  it('turns a filled form into the API input, nulling what does not apply', () => {
    const parsed = LoanFormSchema.safeParse(filled({ unitRentsCents: ['1', '2', '3', '4'], interestOnlyMonths: '60', prepaymentYears: '3' }));
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    expect(parsed.data).toMatchObject({
      borrowerName: 'Dana Borrower',
      borrowerEmail: null,
      propertyState: 'TX',
      propertyType: 'single_family',
      unitCount: null,
      unitRentsCents: null,
      valueCents: 40_000_000,
      loanAmountCents: 30_000_000,
      noteRatePercent: 7.25,
      termYears: 30,
      amortizationYears: 30,
      interestOnlyMonths: null,
      prepaymentYears: null,
      monthlyRentCents: 310_000,
      strAnnualRevenueCents: null,
      strExpensePercent: null,
      annualTaxesCents: 600_000,
      annualInsuranceCents: 180_000,
      monthlyHoaCents: 0,
      assigneeId: null,
      targetClosingDate: null,
    });
  });

  it('sends a rent per unit for 2–4 units and the revenue with its expense factor for a short-term rental', () => {
    const units = toLoanInput(filled({ propertyType: 'two_to_four', unitCount: '3', unitRentsCents: ['1,100', '1,200.50', '1,300', '999'] }));
    expect(units.issues).toEqual([]);
    expect(units.input).toMatchObject({ unitCount: 3, unitRentsCents: [110_000, 120_050, 130_000], monthlyRentCents: null });

    const str = toLoanInput(filled({ propertyType: 'short_term_rental', strAnnualRevenueCents: '60,000' }));
    expect(str.input).toMatchObject({ strAnnualRevenueCents: 6_000_000, strExpensePercent: 20, monthlyRentCents: null, unitCount: null });
  });

  it('puts each problem at its field, in the schema’s words where the schema decides', () => {
    const parsed = LoanFormSchema.safeParse(
      filled({
        loanAmountCents: 'lots',
        propertyZip: '7870',
        noteRatePercent: '45',
        propertyType: 'two_to_four',
        unitCount: '2',
        unitRentsCents: ['1,000', '', '', ''],
      }),
    );
    expect(parsed.success).toBe(false);
    const byField = Object.fromEntries((parsed.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]));
    expect(byField).toEqual({
      loanAmountCents: 'Loan amount must be an amount in dollars, like 250,000',
      'unitRentsCents.1': 'Enter the rent of unit 2',
      propertyZip: 'ZIP must be 5 digits (or ZIP+4)',
      noteRatePercent: 'Note rate must be at most 30 %',
    });

    const over = LoanFormSchema.safeParse(filled({ loanAmountCents: '500,000' }));
    expect(over.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['loanAmountCents', 'The loan amount can’t exceed the purchase price or value'],
    ]);
    const blank = LoanFormSchema.safeParse(filled({ loanAmountCents: '', propertyState: '' }));
    expect(Object.fromEntries((blank.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]))).toEqual({
      loanAmountCents: 'Enter the loan amount',
      propertyState: 'Choose a US state',
    });
  });

  it('round-trips a stored loan through the form unchanged, so an edit sends only what changed', () => {
    const parsed = LoanFormSchema.parse(filled({ propertyType: 'two_to_four', unitCount: '2', unitRentsCents: ['1,550.25', '1,600', '', ''] }));
    const again = LoanFormSchema.parse(formValuesOf(parsed));
    expect(again).toEqual(parsed);
    expect(changedLoanFields(parsed, again)).toEqual({});
    const edited = LoanFormSchema.parse({ ...formValuesOf(parsed), loanAmountCents: '280,000' });
    expect(changedLoanFields(parsed, edited)).toEqual({ loanAmountCents: 28_000_000 });
  });

  it('feeds the live DSCR panel the same figures the server computes: $300,000 at 7.25 % over 30 years is $2,046.53 P&I', () => {
    const fields = liveDscrFields(filled());
    expect(fields).not.toBeNull();
    const analysis = analyseLoan(fields!, { strong: 1.25, eligible: 1 });
    expect(analysis.monthlyPrincipalAndInterestCents).toBe(204_653);
    expect(analysis.pitiaCents).toBe(204_653 + 50_000 + 15_000);
    expect(analysis.loanToValuePercent).toBe(75);
    expect(liveDscrFields(filled({ noteRatePercent: '' }))).toBeNull();
  });
});
