import { describe, expect, it } from 'vitest';
import { DEFAULT_DSCR_THRESHOLDS } from './dscr';
import { analyseLoan, type LoanDscrFields } from './loan-dscr';

const loan: LoanDscrFields = {
  propertyType: 'single_family',
  unitRentsCents: null,
  monthlyRentCents: 2_000_00,
  strAnnualRevenueCents: null,
  strExpensePercent: null,
  loanAmountCents: 200_000_00,
  valueCents: 250_000_00,
  noteRatePercent: 6.5,
  amortizationYears: 30,
  interestOnly: false,
  annualTaxesCents: 2_600_00,
  annualInsuranceCents: 1_200_00,
  monthlyHoaCents: 0,
  annualFloodInsuranceCents: 0,
};

describe('analyseLoan', () => {
  it('gives the server and the loan page a PITIA that is the sum of the lines shown', () => {
    const analysis = analyseLoan(loan, DEFAULT_DSCR_THRESHOLDS);
    expect(analysis.pitiaLines).toEqual({
      principalAndInterestCents: 1_264_14,
      taxesCents: 216_67,
      insuranceCents: 100_00,
      hoaCents: 0,
      floodInsuranceCents: 0,
    });
    expect(analysis.monthlyPrincipalAndInterestCents).toBe(1_264_14);
    expect(analysis.pitiaCents).toBe(1_580_81);
    // 2,000 ÷ 1,580.81 = 1.26517 → 1.265; the Eligible threshold (1.00) needs 1.00 × 1,580.81.
    expect(analysis).toMatchObject({ dscr: 1.265, band: 'strong', rentNeededCents: 1_580_81, loanToValuePercent: 80 });
  });
});
