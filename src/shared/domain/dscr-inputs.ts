/**
 * The bounds of the DSCR inputs a person types (the public calculator), for
 * the readers of src/shared/money.ts: money as whole cents, rates and
 * percentages as percents (7.25 means 7.25 %).
 */
import type { NumberBounds } from '../money';

/**
 * Bounds of each input, the same as the loan file's schema
 * (src/shared/schemas/loans.ts): money up to $100,000,000, a loan of at least
 * $1,000, a note rate above 0 and at most 30 %, whole years of amortization
 * up to 40, a short-term-rental expense factor up to 90 %, and a target ratio
 * between the lowest and highest band threshold a team may set.
 */
export const DSCR_INPUT_BOUNDS = {
  loanAmountCents: { min: 1_000_00, max: 100_000_000_00, maxDecimals: 2 },
  annualRatePercent: { min: 0.001, max: 30, maxDecimals: 3 },
  amortizationYears: { min: 1, max: 40, maxDecimals: 0 },
  moneyCents: { min: 0, max: 100_000_000_00, maxDecimals: 2 },
  expensePercent: { min: 0, max: 90, maxDecimals: 3 },
  targetDscr: { min: 0.5, max: 3, maxDecimals: 3 },
} as const satisfies Record<string, NumberBounds>;
