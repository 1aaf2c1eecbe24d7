import { z } from 'zod';
import { LOAN_STAGES } from '../domain/loan-stages';
import {
  CLOSING_WINDOWS,
  LOAN_PURPOSES,
  LOAN_STATUSES,
  PIPELINE_PAGE_SIZE,
  PIPELINE_SORTS,
  PREPAYMENT_KINDS,
  PROPERTY_TYPES,
  US_STATE_CODES,
  type LoanField,
  type LoanPurpose,
  type PrepaymentKind,
  type PropertyType,
  type UsState,
} from '../domain/loan-fields';
import type { LoanStage, MainStage } from '../domain/loan-stages';
import type { LoanDscrAnalysis } from '../domain/loan-dscr';
import type { BorrowerLoanView } from '../domain/borrower-view';
import { formatWholeDollars } from '../money';
import { LoanId } from './loan-id';
import { text } from './text';

/**
 * The loan file's one input schema, shared by the loan form and the API.
 * Money is whole cents (integers, never floats in storage); rates and
 * percentages are percents (7.25 means 7.25 %) with at most 3 decimals;
 * dates are real calendar dates written YYYY-MM-DD.
 */

/** $100,000,000: no DSCR loan, value or rent is larger. */
export const MONEY_MAX_CENTS = 10_000_000_000;
export const LOAN_AMOUNT_MIN_CENTS = 1_000_00;
export const NOTE_RATE_MAX_PERCENT = 30;
export const TERM_MAX_YEARS = 40;
export const UNITS_MAX = 1000;
export const STR_EXPENSE_MAX_PERCENT = 90;

const requiredText = (label: string, max: number) =>
  text(label)
    .trim()
    .min(1, { error: `${label} is required` })
    .max(max, { error: `${label} must be at most ${max} characters` });

/** Optional text: empty or blank becomes null. */
const optionalText = (label: string, max: number) =>
  text(label)
    .trim()
    .max(max, { error: `${label} must be at most ${max} characters` })
    .transform((value) => (value === '' ? null : value))
    .nullable();

const cents = (label: string, { min = 0, max = MONEY_MAX_CENTS }: { min?: number; max?: number } = {}) =>
  z
    .number({ error: `${label} must be a number of cents` })
    .int({ error: `${label} must be whole cents` })
    .min(min, { error: min > 0 ? `${label} must be at least ${formatWholeDollars(min)}` : `${label} can't be negative` })
    .max(max, { error: `${label} must be at most ${formatWholeDollars(max)}` });

const optionalCents = (label: string) => cents(label).nullable();

const percent = (label: string, { min, max, minExclusive = false }: { min: number; max: number; minExclusive?: boolean }) =>
  z
    .number({ error: `${label} must be a number` })
    .refine(Number.isFinite, { error: `${label} must be a number` })
    // Compared as stored (thousandths of a percent): 0.0001 % is stored as 0, which is not more than 0.
    .refine((value) => (minExclusive ? Math.round(value * 1000) > min * 1000 : value >= min), {
      error: `${label} must be ${minExclusive ? 'more than' : 'at least'} ${min} %`,
    })
    .refine((value) => value <= max, { error: `${label} must be at most ${max} %` })
    .refine((value) => Math.abs(Math.round(value * 1000) - value * 1000) < 1e-6, { error: `${label} takes at most 3 decimals` });

const wholeNumber = (label: string, min: number, max: number, unit = '') =>
  z
    .number({ error: `${label} must be a number` })
    .int({ error: `${label} must be a whole number` })
    .min(min, { error: `${label} must be at least ${min}${unit}` })
    .max(max, { error: `${label} must be at most ${max}${unit}` });

/** True when YYYY-MM-DD names a real day (no February 30th). */
export function isRealDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

export const CalendarDate = (label: string) =>
  text(label)
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: `${label} must be a date (YYYY-MM-DD)` })
    .refine(isRealDate, { error: `${label} is not a real date` })
    .refine((value) => value >= '2000-01-01' && value <= '2100-12-31', { error: `${label} must be between 2000 and 2100` });

const Email = text('Borrower e-mail')
  .trim()
  .max(254, { error: 'Borrower e-mail must be at most 254 characters' })
  .pipe(z.union([z.literal(''), z.email({ error: 'Enter a valid e-mail address' })]))
  .transform((value) => (value === '' ? null : value))
  .nullable();

const Phone = text('Phone')
  .trim()
  .max(40, { error: 'Phone must be at most 40 characters' })
  .refine((value) => value === '' || /^[+0-9 ().-]{7,40}$/.test(value), { error: 'Enter a phone number like (512) 555-0100' })
  .transform((value) => (value === '' ? null : value))
  .nullable();

/** Every editable field of a loan file, each with its bounds; cross-field rules are in `checkLoan`. */
export const loanFieldSchemas = {
  borrowerName: requiredText('Borrower name', 200),
  borrowerEmail: Email,
  borrowerPhone: Phone,
  entityName: optionalText('Borrowing entity', 200),
  propertyStreet: requiredText('Street', 200),
  propertyUnit: optionalText('Unit', 40),
  propertyCity: requiredText('City', 100),
  propertyState: z.enum(US_STATE_CODES as [UsState, ...UsState[]], { error: 'Choose a US state' }),
  propertyZip: text('ZIP')
    .trim()
    .regex(/^\d{5}(-\d{4})?$/, { error: 'ZIP must be 5 digits (or ZIP+4)' }),
  propertyType: z.enum(PROPERTY_TYPES, { error: 'Choose a property type' }),
  unitCount: wholeNumber('Number of units', 2, UNITS_MAX).nullable(),
  unitRentsCents: z.array(cents('Rent per unit'), { error: 'Rent per unit must be a list' }).max(4, { error: 'At most 4 unit rents' }).nullable(),
  purpose: z.enum(LOAN_PURPOSES, { error: 'Choose a purpose' }),
  valueCents: cents('Purchase price or value', { min: LOAN_AMOUNT_MIN_CENTS }),
  loanAmountCents: cents('Loan amount', { min: LOAN_AMOUNT_MIN_CENTS }),
  noteRatePercent: percent('Note rate', { min: 0, max: NOTE_RATE_MAX_PERCENT, minExclusive: true }),
  termYears: wholeNumber('Term', 1, TERM_MAX_YEARS, ' years'),
  amortizationYears: wholeNumber('Amortization', 1, TERM_MAX_YEARS, ' years'),
  interestOnly: z.boolean({ error: 'Interest-only must be yes or no' }),
  interestOnlyMonths: wholeNumber('Interest-only period', 1, TERM_MAX_YEARS * 12, ' months').nullable(),
  prepaymentKind: z.enum(PREPAYMENT_KINDS, { error: 'Choose none, step-down or fixed' }),
  prepaymentYears: wholeNumber('Prepayment period', 1, 5, ' years').nullable(),
  monthlyRentCents: optionalCents('Gross monthly rent'),
  strAnnualRevenueCents: optionalCents('Annual rental revenue'),
  strExpensePercent: percent('Expense factor', { min: 0, max: STR_EXPENSE_MAX_PERCENT }).nullable(),
  annualTaxesCents: cents('Annual property taxes'),
  annualInsuranceCents: cents('Annual insurance'),
  monthlyHoaCents: cents('Monthly HOA'),
  annualFloodInsuranceCents: cents('Annual flood insurance'),
  targetClosingDate: CalendarDate('Target closing date').nullable(),
  assigneeId: text('Assignee').min(1).max(64, { error: 'Not a team member' }).nullable(),
  lenderName: optionalText('Lender', 120),
  lenderLoanNumber: optionalText('Lender loan number', 60),
  internalNotes: optionalText('Internal notes', 5000),
} satisfies Record<LoanField, z.ZodType>;

export type LoanInput = { [K in LoanField]: z.output<(typeof loanFieldSchemas)[K]> };

interface Issue {
  field: LoanField;
  message: string;
}

/**
 * The rules between fields, on a whole loan (a new one, or an edited one
 * merged with what is stored): the unit rents match the units, a short-term
 * rental has its revenue, interest-only has a period within the term, a
 * prepayment penalty has its years, and the loan does not exceed the value.
 */
export function loanIssues(loan: LoanInput): Issue[] {
  const issues: Issue[] = [];
  const type: PropertyType = loan.propertyType;
  if (type === 'two_to_four') {
    if (loan.unitCount === null || loan.unitCount < 2 || loan.unitCount > 4)
      issues.push({ field: 'unitCount', message: 'A 2–4 unit property has 2, 3 or 4 units' });
    else if (!loan.unitRentsCents || loan.unitRentsCents.length !== loan.unitCount)
      issues.push({ field: 'unitRentsCents', message: `Give a rent for each of the ${loan.unitCount} units` });
  } else if (type === 'five_plus') {
    if (loan.unitCount === null || loan.unitCount < 5) issues.push({ field: 'unitCount', message: 'A 5+ unit property has at least 5 units' });
  } else if (loan.unitCount !== null) {
    issues.push({ field: 'unitCount', message: 'Only 2–4 unit and 5+ unit properties have a number of units' });
  }
  if (type !== 'two_to_four' && loan.unitRentsCents !== null) issues.push({ field: 'unitRentsCents', message: 'Rents per unit are for 2–4 unit properties' });
  if (type === 'short_term_rental' && loan.strAnnualRevenueCents === null)
    issues.push({ field: 'strAnnualRevenueCents', message: 'A short-term rental needs its annual rental revenue' });
  if (loan.interestOnly && loan.interestOnlyMonths === null) issues.push({ field: 'interestOnlyMonths', message: 'Give the interest-only period' });
  if (loan.interestOnly && loan.interestOnlyMonths !== null && loan.interestOnlyMonths > loan.termYears * 12)
    issues.push({ field: 'interestOnlyMonths', message: 'The interest-only period must fit within the term' });
  if (!loan.interestOnly && loan.interestOnlyMonths !== null)
    issues.push({ field: 'interestOnlyMonths', message: 'Only interest-only loans have an interest-only period' });
  if (loan.amortizationYears < loan.termYears) issues.push({ field: 'amortizationYears', message: 'Amortization can’t be shorter than the term' });
  const kind: PrepaymentKind = loan.prepaymentKind;
  if (kind !== 'none' && loan.prepaymentYears === null) issues.push({ field: 'prepaymentYears', message: 'Give the prepayment period in years' });
  if (kind === 'none' && loan.prepaymentYears !== null) issues.push({ field: 'prepaymentYears', message: 'No penalty, no period' });
  if (loan.loanAmountCents > loan.valueCents) issues.push({ field: 'loanAmountCents', message: 'The loan amount can’t exceed the purchase price or value' });
  return issues;
}

const addIssues = (loan: LoanInput, ctx: z.RefinementCtx) => {
  for (const issue of loanIssues(loan)) ctx.addIssue({ code: 'custom', path: [issue.field], message: issue.message });
};

/** What a new loan may leave out, and what it then is. */
export const LOAN_DEFAULTS = {
  borrowerEmail: null,
  borrowerPhone: null,
  entityName: null,
  propertyUnit: null,
  unitCount: null,
  unitRentsCents: null,
  termYears: 30,
  amortizationYears: 30,
  interestOnly: false,
  interestOnlyMonths: null,
  prepaymentKind: 'none',
  prepaymentYears: null,
  monthlyRentCents: null,
  strAnnualRevenueCents: null,
  strExpensePercent: null,
  annualTaxesCents: 0,
  annualInsuranceCents: 0,
  monthlyHoaCents: 0,
  annualFloodInsuranceCents: 0,
  targetClosingDate: null,
  assigneeId: null,
  lenderName: null,
  lenderLoanNumber: null,
  internalNotes: null,
} as const satisfies Partial<LoanInput>;

const withDefaults = Object.fromEntries(
  Object.entries(loanFieldSchemas).map(([field, schema]) => [
    field,
    field in LOAN_DEFAULTS ? (schema as z.ZodType).optional().default(LOAN_DEFAULTS[field as keyof typeof LOAN_DEFAULTS] as never) : schema,
  ]),
) as { [K in LoanField]: K extends keyof typeof LOAN_DEFAULTS ? z.ZodDefault<z.ZodOptional<(typeof loanFieldSchemas)[K]>> : (typeof loanFieldSchemas)[K] };

/** POST /api/teams/:teamId/loans. */
export const CreateLoanSchema = z.strictObject(withDefaults).superRefine((loan, ctx) => addIssues(loan as LoanInput, ctx));
export type CreateLoan = z.input<typeof CreateLoanSchema>;

/**
 * PATCH /api/loans/:loanId: any fields, and the version the editor started
 * from, always (an edit without it would overwrite whatever changed since).
 * The server merges the change with the stored loan and checks the whole
 * (`loanIssues`); a stale version is a 409, so no edit is lost.
 */
export const UpdateLoanSchema = z
  .strictObject({
    ...z.object(loanFieldSchemas).partial().shape,
    version: z
      .number({ error: 'Send the version of the loan you started editing from' })
      .int({ error: 'version must be a whole number' })
      .min(1, { error: 'version must be at least 1' }),
  })
  .refine((value) => Object.keys(value).some((key) => key !== 'version'), { error: 'Send at least one field to change' });
export type UpdateLoan = z.input<typeof UpdateLoanSchema>;

/** Checks a whole loan after a partial update; the issues name the fields. */
export const WholeLoanSchema = z.object(loanFieldSchemas).superRefine((loan, ctx) => addIssues(loan as LoanInput, ctx));

export const LoanIdParamsSchema = z.object({ loanId: LoanId });

const Note = text('Note')
  .trim()
  .max(2000, { error: 'Note must be at most 2,000 characters' })
  .transform((value) => (value === '' ? null : value))
  .nullable()
  .optional();

/**
 * POST /api/loans/:loanId/stage: `from` is the stage the mover saw. If the
 * loan moved meanwhile the answer is 409, so two moves at once never
 * silently overwrite each other. Exits need a reason.
 */
export const ChangeStageSchema = z.strictObject({
  from: z.enum(LOAN_STAGES, { error: 'Unknown stage' }),
  to: z.enum(LOAN_STAGES, { error: 'Unknown stage' }),
  note: Note,
});
export type ChangeStage = z.input<typeof ChangeStageSchema>;

export const DeleteLoanSchema = z.strictObject({
  confirmAddress: text('Property address').max(400, { error: 'That is not the property address' }),
});

export const PIPELINE_PAGE_MAX = 200;
export const CSV_ROWS_MAX = 20_000;

const list = <T extends string>(values: readonly [T, ...T[]], label: string) =>
  z
    .union([z.string(), z.array(z.string())], { error: `${label} must be text` })
    .transform((value) => (Array.isArray(value) ? value : value.split(',')).filter((item) => item !== ''))
    .refine((items) => items.length <= values.length && items.every((item) => (values as readonly string[]).includes(item)), {
      error: `Unknown ${label.toLowerCase()}`,
    })
    .transform((items) => items as T[]);

/**
 * The pipeline's view, as the address bar holds it: search, filters, sort
 * and page. Everything optional; the default view is open loans, last
 * activity first.
 */
export const PipelineQuerySchema = z.strictObject({
  q: text('Search').trim().max(200, { error: 'Search must be at most 200 characters' }).optional(),
  stage: list(LOAN_STAGES, 'Stage').optional(),
  assignee: text('Assignee').max(64, { error: 'Not a team member' }).optional(),
  closing: z.enum(CLOSING_WINDOWS, { error: 'Use overdue, this_week or this_month' }).optional(),
  status: z.enum(LOAN_STATUSES, { error: 'Use open, funded, closed or archived' }).default('open'),
  sort: z.enum(PIPELINE_SORTS, { error: 'Unknown sort' }).default('last_activity'),
  dir: z.enum(['asc', 'desc'], { error: 'Use asc or desc' }).optional(),
  page: z.coerce.number({ error: 'Page must be a number' }).int().min(1).max(100_000).default(1),
  size: z.coerce.number({ error: 'Size must be a number' }).int().min(1).max(PIPELINE_PAGE_MAX).default(PIPELINE_PAGE_SIZE),
  /** The browser's today (YYYY-MM-DD), so "this week" is the broker's week. */
  today: CalendarDate('Today').optional(),
});
export type PipelineQuery = z.output<typeof PipelineQuerySchema>;

/** Team setting: the DSCR bands' thresholds (inclusive), to 2 decimals. */
export const DscrThresholdsSchema = z
  .strictObject({
    strong: z.number({ error: 'Strong threshold must be a number' }).min(0.5).max(3).multipleOf(0.01, { error: 'Use at most 2 decimals' }),
    eligible: z.number({ error: 'Eligible threshold must be a number' }).min(0.5).max(3).multipleOf(0.01, { error: 'Use at most 2 decimals' }),
  })
  .refine((value) => value.eligible <= value.strong, { error: 'Eligible can’t be above Strong', path: ['eligible'] });

// ---- What the API answers ----

export interface PersonRef {
  id: string;
  name: string;
  email: string;
}

export type DscrFigures = LoanDscrAnalysis;

export interface LoanStageChangeView {
  id: number;
  from: LoanStage | null;
  to: LoanStage;
  note: string | null;
  by: PersonRef | null;
  at: string;
}

/** A loan as its team sees it (owners and assistants). */
export interface LoanDetail extends LoanInput {
  id: string;
  teamId: string;
  version: number;
  stage: LoanStage;
  leftFromStage: MainStage | null;
  stageEnteredAt: string;
  daysInStage: number;
  progress: number;
  archivedAt: string | null;
  createdAt: string;
  updatedAt: string;
  lastActivityAt: string;
  assignee: PersonRef | null;
  dscr: DscrFigures;
  thresholds: { strong: number; eligible: number };
  stageHistory: LoanStageChangeView[];
}

/** GET /api/loans/:loanId: the team's file, or a borrower's projection of it. */
export type LoanView = ({ viewer: 'team' } & LoanDetail) | ({ viewer: 'borrower' } & BorrowerLoanView);

export interface PipelineRow {
  id: string;
  borrowerName: string;
  borrowerEmail: string | null;
  entityName: string | null;
  property: string;
  propertyCity: string;
  propertyState: UsState;
  loanAmountCents: number;
  purpose: LoanPurpose;
  stage: LoanStage;
  /** The main-line step an exited loan left from: where it reopens to. */
  leftFromStage: MainStage | null;
  progress: number;
  /** Required checklist items still needed (waived and confirmed not-applicable ones leave the count), and those approved: what progress counts. */
  requiredDocuments: number;
  approvedDocuments: number;
  /** Required items still open (required − approved): the "Outstanding docs" column. */
  outstandingDocuments: number;
  daysInStage: number;
  targetClosingDate: string | null;
  lastActivityAt: string;
  assignee: PersonRef | null;
  lenderLoanNumber: string | null;
  archived: boolean;
  /** Comments on the loan the caller has not read (others', not deleted, after their read cursor). */
  unreadComments: number;
}

export interface PipelinePage {
  rows: PipelineRow[];
  total: number;
  page: number;
  size: number;
  /** Loans per stage in the current view, ignoring the stage filter (the board's columns and the filter chips). */
  stageCounts: Partial<Record<LoanStage, number>>;
}

export const ACTIVITY_VISIBILITIES = ['shared', 'internal'] as const;
export type ActivityVisibility = (typeof ACTIVITY_VISIBILITIES)[number];

/** `before`: the `id` of the last item of the page before (its `nextBefore`). */
export const ActivityQuerySchema = z.strictObject({
  before: z.coerce.number({ error: 'before must be an activity id' }).int().min(1).max(2_147_483_647).optional(),
});

/** One activity row as its reader sees it. */
export interface ActivityView {
  /** Its place in the reader's sequence of the loan's activity (the team's, or the borrowers' shared one): the cursor. */
  id: number;
  kind: string;
  /** Who did it: a team member by id and name for the team; for a borrower only a name (`borrowerActivityActor`), never an id. */
  actor: { id: string; name: string } | { name: string } | null;
  data: Record<string, unknown>;
  visibility: ActivityVisibility;
  at: string;
}

export interface ActivityPage {
  items: ActivityView[];
  /** Pass as `before` for the next page; null on the last one. */
  nextBefore: number | null;
}

export type { MainStage, LoanStage, PropertyType, LoanPurpose, PrepaymentKind };
