/**
 * DSCR (debt-service coverage ratio) math for investor loans: one pure module
 * used by the server, the loan page and the public calculator. Money is in
 * whole cents (integers) at the edges; rates and percentages are percents
 * (7.25 means 7.25 %). Each monthly line a person sees (P&I, taxes ÷ 12,
 * insurance ÷ 12, HOA, flood ÷ 12) is rounded to the cent, half up, and PITIA
 * is the sum of those lines, so the figures shown add up; the ratio, the rent
 * needed and the max loan all follow from that PITIA (decision 010).
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
  /** PITIA's lines, each to the cent; pitiaCents is their sum. */
  lines: PitiaLines;
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

/** The monthly lines of PITIA, each to the cent as a person sees it. */
export interface PitiaLines {
  principalAndInterestCents: number;
  /** Annual taxes ÷ 12. */
  taxesCents: number;
  /** Annual hazard insurance ÷ 12. */
  insuranceCents: number;
  hoaCents: number;
  /** Annual flood insurance ÷ 12. */
  floodInsuranceCents: number;
}

/** Taxes, insurance, HOA and flood insurance per month, each to the cent. */
function escrowLines(escrows: Escrows): Omit<PitiaLines, 'principalAndInterestCents'> {
  return {
    taxesCents: roundHalfUp((escrows.annualTaxesCents ?? 0) / 12),
    insuranceCents: roundHalfUp((escrows.annualInsuranceCents ?? 0) / 12),
    hoaCents: roundHalfUp(escrows.monthlyHoaCents ?? 0),
    floodInsuranceCents: roundHalfUp((escrows.annualFloodInsuranceCents ?? 0) / 12),
  };
}

const sumEscrows = (lines: Omit<PitiaLines, 'principalAndInterestCents'>) =>
  lines.taxesCents + lines.insuranceCents + lines.hoaCents + lines.floodInsuranceCents;

/** PITIA's lines: P&I, taxes ÷ 12, insurance ÷ 12, HOA and flood insurance ÷ 12, each to the cent. */
export function pitiaLines(inputs: DebtTerms & Escrows): PitiaLines {
  return { principalAndInterestCents: monthlyPrincipalAndInterestCents(inputs), ...escrowLines(inputs) };
}

/** PITIA = the sum of its lines as shown (pitiaLines), so a broker adding them gets the same total. */
export function pitiaCents(inputs: DebtTerms & Escrows): number {
  const lines = pitiaLines(inputs);
  return lines.principalAndInterestCents + sumEscrows(lines);
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
 * DSCR = qualifying rent ÷ PITIA, with the figures a lender shows: each line
 * of PITIA to the cent and PITIA their sum, the ratio from those to 3
 * decimals (half up), and its band.
 */
export function computeDscr(inputs: DscrInputs, thresholds: DscrThresholds = DEFAULT_DSCR_THRESHOLDS): DscrResult {
  const lines = pitiaLines(inputs);
  const pitia = lines.principalAndInterestCents + sumEscrows(lines);
  const rent = qualifyingRentCents(inputs.income);
  const figures = { monthlyPrincipalAndInterestCents: lines.principalAndInterestCents, lines, pitiaCents: pitia, qualifyingRentCents: rent };
  if (pitia <= 0) return { ...figures, dscr: null, band: null };
  const dscr = roundHalfUp(rent / pitia, 3);
  return { ...figures, dscr, band: dscrBand(dscr, thresholds) };
}

/**
 * The largest whole-dollar loan amount (in cents) whose exact DSCR still
 * meets `targetDscr`, or 0 when even the escrows alone fail it. Null when the
 * payment does not depend on the amount (no rate and no amortization).
 *
 * "Exact" is the ratio of the figures shown, before the ratio is rounded:
 * qualifying rent ÷ PITIA, both to the cent as computeDscr has them. So the
 * loan page, at the amount quoted, shows a DSCR at or above the target, and a
 * dollar more would put it below.
 */
export function maxLoanAtTargetCents(inputs: Omit<DscrInputs, 'loanAmountCents'>, targetDscr: number): number | null {
  const factor = paymentFactor(inputs);
  if (!(factor > 0) || !(targetDscr > 0)) return null;
  const rent = qualifyingRentCents(inputs.income);
  const escrows = sumEscrows(escrowLines(inputs));
  // P&I only grows with the amount, so the rule holds up to one amount and fails above it.
  const meets = (dollars: number) => rent / (monthlyPrincipalAndInterestCents({ ...inputs, loanAmountCents: dollars * 100 }) + escrows) >= targetDscr;
  const roomForPayment = rent / targetDscr - escrows;
  if (roomForPayment <= 0 || !meets(0)) return 0;
  let dollars = Math.floor(roomForPayment / factor / 100);
  // The closed form can land a dollar or so off (the payment is rounded to the cent): settle on the rule itself.
  while (dollars > 0 && !meets(dollars)) dollars--;
  while (meets(dollars + 1)) dollars++;
  return dollars * 100;
}

/** The monthly rent (in cents, rounded up) needed for `targetDscr` at the current amount: target × PITIA (the sum of its lines). */
export function rentNeededForTargetCents(inputs: DebtTerms & Escrows, targetDscr: number): number {
  const needed = targetDscr * pitiaCents(inputs);
  // Rounded up, so the rent quoted really meets the target; a hair's float error does not add a cent.
  return Math.ceil(needed - Math.abs(needed) * Number.EPSILON * 8);
}

/** Loan-to-value in percent (to 2 decimals, half up), or null without a value. */
export function loanToValuePercent(loanAmountCents: number, valueCents: number): number | null {
  return valueCents > 0 ? roundHalfUp((loanAmountCents / valueCents) * 100, 2) : null;
}
