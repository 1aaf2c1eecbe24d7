/**
 * DSCR (debt-service coverage ratio) math for investor loans: one pure module
 * used by the server, the loan page and the public calculator. Money is in
 * whole cents (integers) at the edges; rates and percentages are percents
 * (7.25 means 7.25 %). Intermediate figures are exact floating point; what a
 * person sees (P&I, PITIA) is rounded to the cent, the ratio to 3 decimals,
 * half up.
 */

export interface DscrThresholds {
  /** At or above: Strong. */
  strong: number;
  /** At or above (and below strong): Eligible. Below: No-ratio. */
  eligible: number;
}

/** Lenders' usual bands; a team may set its own. Both thresholds are inclusive. */
export const DEFAULT_DSCR_THRESHOLDS: DscrThresholds = { strong: 1.25, eligible: 1.0 };

/** The share of short-term-rental revenue taken as expenses when none is given (20 %). */
export const DEFAULT_STR_EXPENSE_PERCENT = 20;

export type DscrBand = 'strong' | 'eligible' | 'no-ratio';

export const DSCR_BAND_LABELS: Readonly<Record<DscrBand, string>> = { strong: 'Strong', eligible: 'Eligible', 'no-ratio': 'No-ratio' };

export interface DebtTerms {
  loanAmountCents: number;
  /** Note rate, in percent a year. */
  annualRatePercent: number;
  /** Amortization, in years (30 for a 30-year schedule). */
  amortizationYears: number;
  /** Interest-only payments (amount × rate ÷ 12) instead of amortizing ones. */
  interestOnly?: boolean;
}

export interface Escrows {
  annualTaxesCents?: number;
  annualInsuranceCents?: number;
  monthlyHoaCents?: number;
  annualFloodInsuranceCents?: number;
}

/** Income: long-term rent (one rent, or one per unit of a 2–4 unit property), or short-term-rental revenue. */
export type RentalIncome =
  { kind: 'long-term'; monthlyRentCents: number | number[] } | { kind: 'short-term'; annualRevenueCents: number; expensePercent?: number };

export interface DscrInputs extends DebtTerms, Escrows {
  income: RentalIncome;
}

export interface DscrResult {
  monthlyPrincipalAndInterestCents: number;
  pitiaCents: number;
  qualifyingRentCents: number;
  /** Rounded to 3 decimals, half up; null when there is no payment to cover. */
  dscr: number | null;
  band: DscrBand | null;
}

/** Rounds half up to a whole number, immune to binary fractions just below .5 (1.005 → 1.01 at the cent). */
function roundHalfUp(value: number, decimals = 0): number {
  const factor = 10 ** decimals;
  const scaled = value * factor;
  // A tiny relative nudge absorbs representation error (e.g. 0.1245 * 1000 = 124.49999999999999).
  return Math.floor(scaled + 0.5 + Math.abs(scaled) * Number.EPSILON * 8) / factor;
}

/** The monthly payment factor: payment = amount × factor (exact, unrounded). */
function paymentFactor({ annualRatePercent, amortizationYears, interestOnly }: Omit<DebtTerms, 'loanAmountCents'>): number {
  const monthlyRate = annualRatePercent / 100 / 12;
  if (interestOnly) return monthlyRate;
  const months = Math.round(amortizationYears * 12);
  if (months <= 0) return 0;
  if (monthlyRate === 0) return 1 / months;
  return monthlyRate / (1 - (1 + monthlyRate) ** -months);
}

/** Monthly principal and interest, exact: the standard amortization formula, or amount × rate ÷ 12 when interest-only. */
export function exactMonthlyPayment(terms: DebtTerms): number {
  return terms.loanAmountCents * paymentFactor(terms);
}

/** Monthly principal and interest, to the cent. */
export function monthlyPrincipalAndInterestCents(terms: DebtTerms): number {
  return roundHalfUp(exactMonthlyPayment(terms));
}

/** Taxes, insurance, HOA and flood insurance per month, exact. */
export function exactMonthlyEscrows(escrows: Escrows): number {
  return (
    (escrows.annualTaxesCents ?? 0) / 12 +
    (escrows.annualInsuranceCents ?? 0) / 12 +
    (escrows.monthlyHoaCents ?? 0) +
    (escrows.annualFloodInsuranceCents ?? 0) / 12
  );
}

/** PITIA = P&I + taxes ÷ 12 + insurance ÷ 12 + HOA + flood insurance ÷ 12, to the cent. */
export function pitiaCents(inputs: DebtTerms & Escrows): number {
  return roundHalfUp(exactMonthlyPayment(inputs) + exactMonthlyEscrows(inputs));
}

/** Qualifying monthly rent, exact: the rent (summed over units), or STR revenue ÷ 12 × (1 − expense factor). */
export function exactQualifyingRent(income: RentalIncome): number {
  if (income.kind === 'long-term') {
    const rents = Array.isArray(income.monthlyRentCents) ? income.monthlyRentCents : [income.monthlyRentCents];
    return rents.reduce((sum, rent) => sum + rent, 0);
  }
  const expense = (income.expensePercent ?? DEFAULT_STR_EXPENSE_PERCENT) / 100;
  return (income.annualRevenueCents / 12) * (1 - expense);
}

export function qualifyingRentCents(income: RentalIncome): number {
  return roundHalfUp(exactQualifyingRent(income));
}

/** The band of a ratio against the thresholds (inclusive: exactly 1.25 is Strong). */
export function dscrBand(dscr: number, thresholds: DscrThresholds = DEFAULT_DSCR_THRESHOLDS): DscrBand {
  if (dscr >= thresholds.strong) return 'strong';
  if (dscr >= thresholds.eligible) return 'eligible';
  return 'no-ratio';
}

/**
 * DSCR = qualifying rent ÷ PITIA, with the figures a lender shows: P&I and
 * PITIA to the cent, the ratio from those to 3 decimals (half up), and its band.
 */
export function computeDscr(inputs: DscrInputs, thresholds: DscrThresholds = DEFAULT_DSCR_THRESHOLDS): DscrResult {
  const pi = monthlyPrincipalAndInterestCents(inputs);
  const pitia = pitiaCents(inputs);
  const rent = qualifyingRentCents(inputs.income);
  if (pitia <= 0) return { monthlyPrincipalAndInterestCents: pi, pitiaCents: pitia, qualifyingRentCents: rent, dscr: null, band: null };
  const dscr = roundHalfUp(rent / pitia, 3);
  return { monthlyPrincipalAndInterestCents: pi, pitiaCents: pitia, qualifyingRentCents: rent, dscr, band: dscrBand(dscr, thresholds) };
}

/** The exact (unrounded) ratio for a loan amount, as the max-loan search compares it. */
function exactDscr(inputs: DscrInputs, loanAmountCents: number): number {
  const pitia = exactMonthlyPayment({ ...inputs, loanAmountCents }) + exactMonthlyEscrows(inputs);
  return pitia > 0 ? exactQualifyingRent(inputs.income) / pitia : Infinity;
}

/**
 * The largest whole-dollar loan amount (in cents) whose exact DSCR still meets
 * `targetDscr`, or 0 when even the escrows alone fail it. Null when the
 * payment does not depend on the amount (no rate and no amortization).
 */
export function maxLoanAtTargetCents(inputs: Omit<DscrInputs, 'loanAmountCents'>, targetDscr: number): number | null {
  const factor = paymentFactor(inputs);
  if (!(factor > 0) || !(targetDscr > 0)) return null;
  const withAmount = { ...inputs, loanAmountCents: 0 };
  const roomForPayment = exactQualifyingRent(inputs.income) / targetDscr - exactMonthlyEscrows(inputs);
  if (roomForPayment <= 0) return 0;
  let dollars = Math.floor(roomForPayment / factor / 100);
  // The closed form can land a dollar off through floating point: settle on the exact comparison.
  while (dollars > 0 && exactDscr(withAmount, dollars * 100) < targetDscr) dollars--;
  while (exactDscr(withAmount, (dollars + 1) * 100) >= targetDscr) dollars++;
  return dollars * 100;
}

/** The monthly rent (in cents, rounded up) needed for `targetDscr` at the current amount: target × exact PITIA. */
export function rentNeededForTargetCents(inputs: DebtTerms & Escrows, targetDscr: number): number {
  const exactPitia = exactMonthlyPayment(inputs) + exactMonthlyEscrows(inputs);
  const needed = targetDscr * exactPitia;
  // Rounded up, so the rent quoted really meets the target; a hair's float error does not add a cent.
  return Math.ceil(needed - Math.abs(needed) * Number.EPSILON * 8);
}

/** Loan-to-value in percent (to 2 decimals, half up), or null without a value. */
export function loanToValuePercent(loanAmountCents: number, valueCents: number): number | null {
  return valueCents > 0 ? roundHalfUp((loanAmountCents / valueCents) * 100, 2) : null;
}
