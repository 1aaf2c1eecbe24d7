import {
  computeDscr,
  loanToValuePercent,
  maxLoanAtTargetCents,
  rentNeededForTargetCents,
  type DscrInputs,
  type DscrThresholds,
  type PitiaLines,
  type RentalIncome,
} from './dscr';
import type { PropertyType } from './loan-fields';

/** The loan fields the DSCR analysis reads (a stored loan, or the loan form's live values). */
export interface LoanDscrFields {
  propertyType: PropertyType;
  unitRentsCents: number[] | null;
  monthlyRentCents: number | null;
  strAnnualRevenueCents: number | null;
  strExpensePercent: number | null;
  loanAmountCents: number;
  valueCents: number;
  noteRatePercent: number;
  amortizationYears: number;
  interestOnly: boolean;
  annualTaxesCents: number;
  annualInsuranceCents: number;
  monthlyHoaCents: number;
  annualFloodInsuranceCents: number;
}

/** The loan's qualifying income: unit rents for 2–4 units, revenue for a short-term rental, else the gross monthly rent. */
export function loanIncome(loan: LoanDscrFields): RentalIncome | null {
  if (loan.propertyType === 'short_term_rental') {
    if (loan.strAnnualRevenueCents === null) return null;
    return {
      kind: 'short-term',
      annualRevenueCents: loan.strAnnualRevenueCents,
      ...(loan.strExpensePercent !== null ? { expensePercent: loan.strExpensePercent } : {}),
    };
  }
  if (loan.propertyType === 'two_to_four' && loan.unitRentsCents && loan.unitRentsCents.length > 0)
    return { kind: 'long-term', monthlyRentCents: loan.unitRentsCents };
  if (loan.monthlyRentCents === null) return null;
  return { kind: 'long-term', monthlyRentCents: loan.monthlyRentCents };
}

export interface LoanDscrAnalysis {
  monthlyPrincipalAndInterestCents: number;
  /** PITIA's monthly lines, each to the cent; pitiaCents is their sum. */
  pitiaLines: PitiaLines;
  pitiaCents: number;
  qualifyingRentCents: number;
  /** Null until the loan has its income. */
  dscr: number | null;
  band: 'strong' | 'eligible' | 'no-ratio' | null;
  loanToValuePercent: number | null;
  /** The largest whole-dollar amount meeting the team's Eligible threshold; null without income. */
  maxLoanAtTargetCents: number | null;
  /** The rent the Eligible threshold needs at the current amount. */
  rentNeededCents: number;
}

/**
 * A loan's DSCR analysis against its team's thresholds: the figures of
 * `computeDscr`, LTV, and the max loan and rent needed for the Eligible
 * threshold. One function for the server's answer and the loan page's live
 * recomputation, so they cannot disagree.
 */
export function analyseLoan(loan: LoanDscrFields, thresholds: DscrThresholds): LoanDscrAnalysis {
  const income = loanIncome(loan);
  const inputs: DscrInputs = {
    loanAmountCents: loan.loanAmountCents,
    annualRatePercent: loan.noteRatePercent,
    amortizationYears: loan.amortizationYears,
    interestOnly: loan.interestOnly,
    annualTaxesCents: loan.annualTaxesCents,
    annualInsuranceCents: loan.annualInsuranceCents,
    monthlyHoaCents: loan.monthlyHoaCents,
    annualFloodInsuranceCents: loan.annualFloodInsuranceCents,
    income: income ?? { kind: 'long-term', monthlyRentCents: 0 },
  };
  const result = computeDscr(inputs, thresholds);
  return {
    monthlyPrincipalAndInterestCents: result.monthlyPrincipalAndInterestCents,
    pitiaLines: result.lines,
    pitiaCents: result.pitiaCents,
    qualifyingRentCents: income ? result.qualifyingRentCents : 0,
    dscr: income ? result.dscr : null,
    band: income ? result.band : null,
    loanToValuePercent: loanToValuePercent(loan.loanAmountCents, loan.valueCents),
    maxLoanAtTargetCents: income ? maxLoanAtTargetCents(inputs, thresholds.eligible) : null,
    rentNeededCents: rentNeededForTargetCents(inputs, thresholds.eligible),
  };
}
