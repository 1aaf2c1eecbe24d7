import {
  computeDscr,
  DEFAULT_DSCR_THRESHOLDS,
  DEFAULT_STR_EXPENSE_PERCENT,
  maxLoanAtTargetCents,
  monthlyPrincipalAndInterestCents,
  pitiaCents,
  pitiaLines,
  qualifyingRentCents,
  rentNeededForTargetCents,
  type DscrBand,
  type PitiaLines,
  type RentalIncome,
} from '../../../shared/domain/dscr';
import { DSCR_INPUT_BOUNDS } from '../../../shared/domain/dscr-inputs';
import { formatWholeDollars, parseDecimal, parseMoneyCents, parsePercent, type NumberBounds, type NumberIssue, type ParsedNumber } from '../../../shared/money';

/** What the calculator holds: each number as typed, and its two switches. */
export interface CalculatorForm {
  loanAmount: string;
  interestRate: string;
  amortizationYears: string;
  interestOnly: boolean;
  monthlyRent: string;
  shortTermRental: boolean;
  annualRevenue: string;
  expensePercent: string;
  annualTaxes: string;
  annualInsurance: string;
  monthlyHoa: string;
  targetDscr: string;
}

export type NumberFieldName = { [K in keyof CalculatorForm]: CalculatorForm[K] extends string ? K : never }[keyof CalculatorForm];
export type SwitchName = Exclude<keyof CalculatorForm, NumberFieldName>;

/** A worked example a visitor can change: $300,000 at 7.25 % over 30 years against $2,800 of rent. */
export const DEFAULT_CALCULATOR_FORM: Readonly<CalculatorForm> = {
  loanAmount: '300,000',
  interestRate: '7.25',
  amortizationYears: '30',
  interestOnly: false,
  monthlyRent: '2,800',
  shortTermRental: false,
  annualRevenue: '60,000',
  expensePercent: String(DEFAULT_STR_EXPENSE_PERCENT),
  annualTaxes: '3,600',
  annualInsurance: '1,500',
  monthlyHoa: '0',
  targetDscr: String(DEFAULT_DSCR_THRESHOLDS.strong),
};

type Kind = 'money' | 'percent' | 'years' | 'ratio';

interface FieldSpec {
  kind: Kind;
  bounds: NumberBounds;
  /** "Enter …" when the field is empty. */
  missing: string;
  /** What the bounds allow, for a value outside them. */
  range: string;
}

const money = (bounds: NumberBounds, missing: string): FieldSpec => ({
  kind: 'money',
  bounds,
  missing,
  range: bounds.min > 0 ? `Enter ${formatWholeDollars(bounds.min)} to ${formatWholeDollars(bounds.max)}.` : `Enter at most ${formatWholeDollars(bounds.max)}.`,
});

export const FIELD_SPECS: Readonly<Record<NumberFieldName, FieldSpec>> = {
  loanAmount: money(DSCR_INPUT_BOUNDS.loanAmountCents, 'Enter the loan amount.'),
  interestRate: {
    kind: 'percent',
    bounds: DSCR_INPUT_BOUNDS.annualRatePercent,
    missing: 'Enter the interest rate.',
    range: 'Enter a rate above 0 % and at most 30 %.',
  },
  amortizationYears: {
    kind: 'years',
    bounds: DSCR_INPUT_BOUNDS.amortizationYears,
    missing: 'Enter the amortization in years.',
    range: 'Enter 1 to 40 years.',
  },
  monthlyRent: money(DSCR_INPUT_BOUNDS.moneyCents, 'Enter the gross monthly rent.'),
  annualRevenue: money(DSCR_INPUT_BOUNDS.moneyCents, 'Enter the annual rental revenue.'),
  expensePercent: { kind: 'percent', bounds: DSCR_INPUT_BOUNDS.expensePercent, missing: 'Enter the expense factor.', range: 'Enter 0 % to 90 %.' },
  annualTaxes: money(DSCR_INPUT_BOUNDS.moneyCents, 'Enter the annual property taxes (0 if none).'),
  annualInsurance: money(DSCR_INPUT_BOUNDS.moneyCents, 'Enter the annual insurance (0 if none).'),
  monthlyHoa: money(DSCR_INPUT_BOUNDS.moneyCents, 'Enter the monthly HOA (0 if none).'),
  targetDscr: { kind: 'ratio', bounds: DSCR_INPUT_BOUNDS.targetDscr, missing: 'Enter a target DSCR.', range: 'Enter a ratio from 0.50 to 3.00.' },
};

const LIKE: Record<Kind, string> = {
  money: 'Enter a dollar amount, like 2,500.',
  percent: 'Enter a percent, like 7.25.',
  years: 'Enter whole years, like 30.',
  ratio: 'Enter a ratio, like 1.25.',
};

const DECIMALS: Record<Kind, string> = {
  money: 'Use at most 2 decimals (cents).',
  percent: 'Use at most 3 decimals.',
  years: 'Enter whole years, like 30.',
  ratio: 'Use at most 3 decimals.',
};

/** Reads one field's text: cents for money, the number itself otherwise. */
export function parseField(name: NumberFieldName, text: string): ParsedNumber {
  const spec = FIELD_SPECS[name];
  switch (spec.kind) {
    case 'money':
      return parseMoneyCents(text, spec.bounds);
    case 'percent':
      return parsePercent(text, spec.bounds);
    default:
      return parseDecimal(text, spec.bounds);
  }
}

function message(name: NumberFieldName, issue: NumberIssue): string {
  const spec = FIELD_SPECS[name];
  switch (issue) {
    case 'empty':
      return spec.missing;
    case 'invalid':
      return LIKE[spec.kind];
    case 'negative':
      return 'Enter a number that is not negative.';
    case 'too-many-decimals':
      return DECIMALS[spec.kind];
    default:
      return spec.range;
  }
}

export type FieldErrors = Partial<Record<NumberFieldName, string>>;

export interface CalculatorResults {
  /** Each figure is null when a field it needs is wrong, or when it has no value (no payment to cover). */
  monthlyPrincipalAndInterestCents: number | null;
  /** PITIA's lines, each to the cent; pitiaCents is their sum. */
  pitiaLines: PitiaLines | null;
  pitiaCents: number | null;
  qualifyingRentCents: number | null;
  dscr: number | null;
  band: DscrBand | null;
  maxLoanCents: number | null;
  rentNeededCents: number | null;
}

/** The fields in use: the rent, or a short-term rental's revenue and expense factor. */
export function activeFields(form: CalculatorForm): NumberFieldName[] {
  const income: NumberFieldName[] = form.shortTermRental ? ['annualRevenue', 'expensePercent'] : ['monthlyRent'];
  return ['loanAmount', 'interestRate', 'amortizationYears', ...income, 'annualTaxes', 'annualInsurance', 'monthlyHoa', 'targetDscr'];
}

/**
 * Checks every field in use and computes what the valid ones allow, with
 * dscr.ts: P&I needs the loan, PITIA the loan and the escrows, the ratio
 * those and the income; the max loan everything but the amount, the rent
 * needed everything but the income.
 */
export function evaluateCalculator(form: CalculatorForm): { errors: FieldErrors; results: CalculatorResults } {
  const errors: FieldErrors = {};
  const values: Partial<Record<NumberFieldName, number>> = {};
  for (const name of activeFields(form)) {
    const parsed = parseField(name, form[name]);
    if (parsed.ok) values[name] = parsed.value;
    else errors[name] = message(name, parsed.issue);
  }
  const { loanAmount, interestRate, amortizationYears, monthlyRent, annualRevenue, expensePercent, annualTaxes, annualInsurance, monthlyHoa, targetDscr } =
    values;

  const terms =
    interestRate !== undefined && amortizationYears !== undefined
      ? { annualRatePercent: interestRate, amortizationYears, interestOnly: form.interestOnly }
      : null;
  const escrows =
    annualTaxes !== undefined && annualInsurance !== undefined && monthlyHoa !== undefined
      ? { annualTaxesCents: annualTaxes, annualInsuranceCents: annualInsurance, monthlyHoaCents: monthlyHoa }
      : null;
  let income: RentalIncome | null = null;
  if (form.shortTermRental) {
    if (annualRevenue !== undefined && expensePercent !== undefined) income = { kind: 'short-term', annualRevenueCents: annualRevenue, expensePercent };
  } else if (monthlyRent !== undefined) {
    income = { kind: 'long-term', monthlyRentCents: monthlyRent };
  }
  const debt = terms && loanAmount !== undefined ? { ...terms, loanAmountCents: loanAmount } : null;

  const results: CalculatorResults = {
    monthlyPrincipalAndInterestCents: debt ? monthlyPrincipalAndInterestCents(debt) : null,
    pitiaLines: debt && escrows ? pitiaLines({ ...debt, ...escrows }) : null,
    pitiaCents: debt && escrows ? pitiaCents({ ...debt, ...escrows }) : null,
    qualifyingRentCents: income ? qualifyingRentCents(income) : null,
    dscr: null,
    band: null,
    maxLoanCents: terms && escrows && income && targetDscr !== undefined ? maxLoanAtTargetCents({ ...terms, ...escrows, income }, targetDscr) : null,
    rentNeededCents: debt && escrows && targetDscr !== undefined ? rentNeededForTargetCents({ ...debt, ...escrows }, targetDscr) : null,
  };
  if (debt && escrows && income) {
    const { dscr, band } = computeDscr({ ...debt, ...escrows, income }, DEFAULT_DSCR_THRESHOLDS);
    results.dscr = dscr;
    results.band = band;
  }
  return { errors, results };
}
