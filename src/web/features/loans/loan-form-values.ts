import { z } from 'zod';
import type { LoanDscrFields } from '../../../shared/domain/loan-dscr';
import { LOAN_FIELDS, type LoanField, type LoanPurpose, type PrepaymentKind, type PropertyType } from '../../../shared/domain/loan-fields';
import { ANY_MONEY, formatMoneyInput, parseDecimal, parseMoneyCents, parsePercent as parseSharedPercent, type NumberBounds } from '../../../shared/money';
import { CreateLoanSchema, LOAN_DEFAULTS, type LoanInput } from '../../../shared/schemas/loans';

/**
 * The loan form's values, as typed: money in dollars ("300,000" or
 * "$1,250.50"), rates and percentages as percents ("7.25"), whole numbers as
 * digits. Every key is the API's field name, so an error from the schema or
 * from the server (problem+json `errors`, e.g. `loanAmountCents` or
 * `unitRentsCents.1`) lands beside its field.
 */
export interface LoanFormValues {
  borrowerName: string;
  borrowerEmail: string;
  borrowerPhone: string;
  entityName: string;
  propertyStreet: string;
  propertyUnit: string;
  propertyCity: string;
  propertyState: string;
  propertyZip: string;
  propertyType: PropertyType;
  unitCount: string;
  /** Always four entries; the first `unitCount` are sent for a 2–4 unit property. */
  unitRentsCents: string[];
  purpose: LoanPurpose;
  valueCents: string;
  loanAmountCents: string;
  noteRatePercent: string;
  termYears: string;
  amortizationYears: string;
  interestOnly: boolean;
  interestOnlyMonths: string;
  prepaymentKind: PrepaymentKind;
  prepaymentYears: string;
  monthlyRentCents: string;
  strAnnualRevenueCents: string;
  strExpensePercent: string;
  annualTaxesCents: string;
  annualInsuranceCents: string;
  monthlyHoaCents: string;
  annualFloodInsuranceCents: string;
  targetClosingDate: string;
  assigneeId: string;
  lenderName: string;
  lenderLoanNumber: string;
  internalNotes: string;
}

/** The expense factor a short-term rental starts with (PRODUCT.md: 20 %). */
export const DEFAULT_STR_EXPENSE_PERCENT = 20;
export const MAX_UNIT_RENTS = 4;

type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

/** Percents and whole numbers as the form reads them: the schema checks the bounds, with its own words. */
const ANY_PERCENT: NumberBounds = { min: 0, max: Number.MAX_VALUE, maxDecimals: Number.POSITIVE_INFINITY };
const ANY_WHOLE: NumberBounds = { min: 0, max: 999_999, maxDecimals: 0 };

/** Dollars as typed → whole cents, by the rule of shared/money.ts; blank → null. "$1,250.5" → 125050. */
export function dollarsToCents(typed: string, label: string): Parsed<number | null> {
  const parsed = parseMoneyCents(typed, ANY_MONEY);
  if (parsed.ok) return parsed;
  if (parsed.issue === 'empty') return { ok: true, value: null };
  if (parsed.issue === 'too-many-decimals') return { ok: false, message: `${label} takes whole cents (at most 2 decimals)` };
  return { ok: false, message: `${label} must be an amount in dollars, like 250,000` };
}

/** Whole cents → dollars for the form: 30000000 → "300,000", 125050 → "1,250.50"; null → "". */
export const centsToDollars = (cents: number | null) => (cents === null ? '' : formatMoneyInput(cents));

/** A percent as typed ("7.25" or "7.25 %") → 7.25, by the rule of shared/money.ts; blank → null. */
export function parsePercent(typed: string, label: string): Parsed<number | null> {
  const parsed = parseSharedPercent(typed, ANY_PERCENT);
  if (parsed.ok) return parsed;
  if (parsed.issue === 'empty') return { ok: true, value: null };
  return { ok: false, message: `${label} must be a percentage, like 7.25` };
}

/** A percent for the form: 7.25 → "7.25"; null → "". */
export const percentToText = (percent: number | null) => (percent === null ? '' : String(percent));

/** Digits → a whole number (up to 999,999), by the rule of shared/money.ts; blank → null. */
export function parseWhole(typed: string, label: string): Parsed<number | null> {
  const parsed = parseDecimal(typed, ANY_WHOLE);
  if (parsed.ok) return parsed;
  if (parsed.issue === 'empty') return { ok: true, value: null };
  return { ok: false, message: `${label} must be a whole number` };
}

const wholeToText = (value: number | null) => (value === null ? '' : String(value));

export interface FormIssue {
  /** A LoanField, or `unitRentsCents.N`. */
  path: string;
  message: string;
}

/**
 * The form's values as the API's loan input, and the fields that could not
 * be read. Fields that do not apply (unit rents for a single-family, the
 * interest-only period of an amortizing loan…) become null, as the schema's
 * cross-field rules expect; the schema then checks bounds and those rules.
 */
export function toLoanInput(values: LoanFormValues): { input: LoanInput; issues: FormIssue[] } {
  const issues: FormIssue[] = [];
  const read = <T>(path: string, parsed: Parsed<T>, fallback: T): T => {
    if (parsed.ok) return parsed.value;
    issues.push({ path, message: parsed.message });
    return fallback;
  };
  const money = (field: LoanField, label: string) => read(field, dollarsToCents(values[field] as string, label), null);
  const required = <T>(field: LoanField, value: T | null, message: string, fallback: T): T => {
    if (value !== null) return value;
    if (!issues.some((issue) => issue.path === field)) issues.push({ path: field, message });
    return fallback;
  };
  const type = values.propertyType;

  const unitCount = type === 'two_to_four' || type === 'five_plus' ? read('unitCount', parseWhole(values.unitCount, 'Number of units'), null) : null;
  let unitRentsCents: number[] | null = null;
  if (type === 'two_to_four' && unitCount !== null && unitCount >= 2 && unitCount <= MAX_UNIT_RENTS) {
    unitRentsCents = values.unitRentsCents.slice(0, unitCount).map((typed, index) => {
      const path = `unitRentsCents.${index}`;
      const cents = read(path, dollarsToCents(typed ?? '', `Unit ${index + 1} rent`), null);
      if (cents === null && !issues.some((issue) => issue.path === path)) issues.push({ path, message: `Enter the rent of unit ${index + 1}` });
      return cents ?? 0;
    });
  }
  const strExpense = type === 'short_term_rental' ? read('strExpensePercent', parsePercent(values.strExpensePercent, 'Expense factor'), null) : null;

  const input: LoanInput = {
    borrowerName: values.borrowerName,
    borrowerEmail: values.borrowerEmail,
    borrowerPhone: values.borrowerPhone,
    entityName: values.entityName,
    propertyStreet: values.propertyStreet,
    propertyUnit: values.propertyUnit,
    propertyCity: values.propertyCity,
    propertyState: values.propertyState as LoanInput['propertyState'],
    propertyZip: values.propertyZip,
    propertyType: type,
    unitCount: type === 'two_to_four' || type === 'five_plus' ? required('unitCount', unitCount, 'Enter the number of units', 0) : null,
    unitRentsCents,
    purpose: values.purpose,
    valueCents: required('valueCents', money('valueCents', 'Purchase price or value'), 'Enter the purchase price or value', 0),
    loanAmountCents: required('loanAmountCents', money('loanAmountCents', 'Loan amount'), 'Enter the loan amount', 0),
    noteRatePercent: required('noteRatePercent', read('noteRatePercent', parsePercent(values.noteRatePercent, 'Note rate'), null), 'Enter the note rate', 0),
    termYears: required('termYears', read('termYears', parseWhole(values.termYears, 'Term'), null), 'Enter the term in years', 0),
    amortizationYears: required(
      'amortizationYears',
      read('amortizationYears', parseWhole(values.amortizationYears, 'Amortization'), null),
      'Enter the amortization in years',
      0,
    ),
    interestOnly: values.interestOnly,
    interestOnlyMonths: values.interestOnly ? read('interestOnlyMonths', parseWhole(values.interestOnlyMonths, 'Interest-only period'), null) : null,
    prepaymentKind: values.prepaymentKind,
    prepaymentYears: values.prepaymentKind === 'none' ? null : read('prepaymentYears', parseWhole(values.prepaymentYears, 'Prepayment period'), null),
    monthlyRentCents: type === 'two_to_four' || type === 'short_term_rental' ? null : money('monthlyRentCents', 'Gross monthly rent'),
    strAnnualRevenueCents: type === 'short_term_rental' ? money('strAnnualRevenueCents', 'Annual rental revenue') : null,
    strExpensePercent: strExpense,
    annualTaxesCents: money('annualTaxesCents', 'Annual property taxes') ?? 0,
    annualInsuranceCents: money('annualInsuranceCents', 'Annual insurance') ?? 0,
    monthlyHoaCents: money('monthlyHoaCents', 'Monthly HOA') ?? 0,
    annualFloodInsuranceCents: money('annualFloodInsuranceCents', 'Annual flood insurance') ?? 0,
    targetClosingDate: values.targetClosingDate === '' ? null : values.targetClosingDate,
    assigneeId: values.assigneeId === '' ? null : values.assigneeId,
    lenderName: values.lenderName,
    lenderLoanNumber: values.lenderLoanNumber,
    internalNotes: values.internalNotes,
  };
  return { input, issues };
}

/**
 * The form's schema: reads the typed values (toLoanInput), then checks them
 * with the API's own CreateLoanSchema (bounds and loanIssues), so the form
 * and the server say the same thing. Every problem is reported at once, each
 * at its field.
 */
export const LoanFormSchema: z.ZodType<LoanInput, LoanFormValues> = z.custom<LoanFormValues>().transform((values, ctx) => {
  const { input, issues } = toLoanInput(values);
  for (const issue of issues)
    ctx.addIssue({ code: 'custom', path: issue.path.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)), message: issue.message });
  const unreadable = new Set(issues.map((issue) => issue.path.split('.')[0]));
  const checked = CreateLoanSchema.safeParse(input);
  if (!checked.success) {
    for (const issue of checked.error.issues) {
      if (unreadable.has(String(issue.path[0]))) continue;
      ctx.addIssue({ code: 'custom', path: issue.path as (string | number)[], message: issue.message });
    }
    return z.NEVER;
  }
  if (issues.length > 0) return z.NEVER;
  return checked.data as LoanInput;
});

/** The form's values for a stored loan. */
export function formValuesOf(loan: LoanInput): LoanFormValues {
  const rents = loan.unitRentsCents ?? [];
  return {
    borrowerName: loan.borrowerName,
    borrowerEmail: loan.borrowerEmail ?? '',
    borrowerPhone: loan.borrowerPhone ?? '',
    entityName: loan.entityName ?? '',
    propertyStreet: loan.propertyStreet,
    propertyUnit: loan.propertyUnit ?? '',
    propertyCity: loan.propertyCity,
    propertyState: loan.propertyState,
    propertyZip: loan.propertyZip,
    propertyType: loan.propertyType,
    unitCount: wholeToText(loan.unitCount),
    unitRentsCents: Array.from({ length: MAX_UNIT_RENTS }, (_, index) => centsToDollars(rents[index] ?? null)),
    purpose: loan.purpose,
    valueCents: centsToDollars(loan.valueCents),
    loanAmountCents: centsToDollars(loan.loanAmountCents),
    noteRatePercent: percentToText(loan.noteRatePercent),
    termYears: wholeToText(loan.termYears),
    amortizationYears: wholeToText(loan.amortizationYears),
    interestOnly: loan.interestOnly,
    interestOnlyMonths: wholeToText(loan.interestOnlyMonths),
    prepaymentKind: loan.prepaymentKind,
    prepaymentYears: wholeToText(loan.prepaymentYears),
    monthlyRentCents: centsToDollars(loan.monthlyRentCents),
    strAnnualRevenueCents: centsToDollars(loan.strAnnualRevenueCents),
    strExpensePercent: percentToText(loan.strExpensePercent ?? (loan.propertyType === 'short_term_rental' ? null : DEFAULT_STR_EXPENSE_PERCENT)),
    annualTaxesCents: centsToDollars(loan.annualTaxesCents),
    annualInsuranceCents: centsToDollars(loan.annualInsuranceCents),
    monthlyHoaCents: centsToDollars(loan.monthlyHoaCents),
    annualFloodInsuranceCents: centsToDollars(loan.annualFloodInsuranceCents),
    targetClosingDate: loan.targetClosingDate ?? '',
    assigneeId: loan.assigneeId ?? '',
    lenderName: loan.lenderName ?? '',
    lenderLoanNumber: loan.lenderLoanNumber ?? '',
    internalNotes: loan.internalNotes ?? '',
  };
}

/** A new loan's form: the schema's defaults, a 30-year fixed loan with the 20 % expense factor ready for a short-term rental. */
export function newLoanValues(assigneeId: string | null): LoanFormValues {
  return {
    ...formValuesOf({
      ...LOAN_DEFAULTS,
      borrowerName: '',
      propertyStreet: '',
      propertyCity: '',
      propertyState: '' as LoanInput['propertyState'],
      propertyZip: '',
      propertyType: 'single_family',
      purpose: 'purchase',
      valueCents: 0,
      loanAmountCents: 0,
      noteRatePercent: 0,
      assigneeId,
    }),
    valueCents: '',
    loanAmountCents: '',
    noteRatePercent: '',
    annualTaxesCents: '',
    annualInsuranceCents: '',
    monthlyHoaCents: '',
    annualFloodInsuranceCents: '',
  };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The fields `next` changes from `before`: what an edit sends (with the version it started from). */
export function changedLoanFields(before: LoanInput, next: LoanInput): Partial<LoanInput> {
  return Object.fromEntries(LOAN_FIELDS.filter((field) => !same(before[field], next[field])).map((field) => [field, next[field]])) as Partial<LoanInput>;
}

/**
 * The DSCR inputs of the form as it is now, or null while the amount, rate
 * or amortization cannot be read yet: the live panel shows dashes until then.
 */
export function liveDscrFields(values: LoanFormValues): LoanDscrFields | null {
  const { input, issues } = toLoanInput(values);
  const blocking = new Set(['loanAmountCents', 'noteRatePercent', 'amortizationYears']);
  if (issues.some((issue) => blocking.has(issue.path))) return null;
  if (input.loanAmountCents <= 0 || input.noteRatePercent <= 0 || input.noteRatePercent > 30) return null;
  if (input.amortizationYears <= 0 || input.amortizationYears > 40) return null;
  // An expense factor out of bounds would give a negative rent: the schema's message shows at the field meanwhile.
  if (input.strExpensePercent !== null && input.strExpensePercent > 90) return null;
  return input;
}
