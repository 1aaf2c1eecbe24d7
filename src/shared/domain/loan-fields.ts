// Free of zod: the loan pages, the pipeline and the CSV export read these
// labels and enumerations without pulling schema code along.

export const PROPERTY_TYPES = ['single_family', 'two_to_four', 'five_plus', 'condo', 'short_term_rental'] as const;
export type PropertyType = (typeof PROPERTY_TYPES)[number];
export const PROPERTY_TYPE_LABELS: Readonly<Record<PropertyType, string>> = {
  single_family: 'Single-family',
  two_to_four: '2–4 units',
  five_plus: '5+ units',
  condo: 'Condo',
  short_term_rental: 'Short-term rental',
};

export const LOAN_PURPOSES = ['purchase', 'rate_term_refinance', 'cash_out_refinance'] as const;
export type LoanPurpose = (typeof LOAN_PURPOSES)[number];
export const LOAN_PURPOSE_LABELS: Readonly<Record<LoanPurpose, string>> = {
  purchase: 'Purchase',
  rate_term_refinance: 'Rate-and-term refinance',
  cash_out_refinance: 'Cash-out refinance',
};

export const PREPAYMENT_KINDS = ['none', 'step_down', 'fixed'] as const;
export type PrepaymentKind = (typeof PREPAYMENT_KINDS)[number];
export const PREPAYMENT_LABELS: Readonly<Record<PrepaymentKind, string>> = { none: 'None', step_down: 'Step-down', fixed: 'Fixed' };

/** The 50 states, DC and the territories lenders write DSCR loans in, by USPS code. */
export const US_STATES = {
  AL: 'Alabama',
  AK: 'Alaska',
  AZ: 'Arizona',
  AR: 'Arkansas',
  CA: 'California',
  CO: 'Colorado',
  CT: 'Connecticut',
  DE: 'Delaware',
  DC: 'District of Columbia',
  FL: 'Florida',
  GA: 'Georgia',
  HI: 'Hawaii',
  ID: 'Idaho',
  IL: 'Illinois',
  IN: 'Indiana',
  IA: 'Iowa',
  KS: 'Kansas',
  KY: 'Kentucky',
  LA: 'Louisiana',
  ME: 'Maine',
  MD: 'Maryland',
  MA: 'Massachusetts',
  MI: 'Michigan',
  MN: 'Minnesota',
  MS: 'Mississippi',
  MO: 'Missouri',
  MT: 'Montana',
  NE: 'Nebraska',
  NV: 'Nevada',
  NH: 'New Hampshire',
  NJ: 'New Jersey',
  NM: 'New Mexico',
  NY: 'New York',
  NC: 'North Carolina',
  ND: 'North Dakota',
  OH: 'Ohio',
  OK: 'Oklahoma',
  OR: 'Oregon',
  PA: 'Pennsylvania',
  PR: 'Puerto Rico',
  RI: 'Rhode Island',
  SC: 'South Carolina',
  SD: 'South Dakota',
  TN: 'Tennessee',
  TX: 'Texas',
  UT: 'Utah',
  VT: 'Vermont',
  VA: 'Virginia',
  VI: 'U.S. Virgin Islands',
  WA: 'Washington',
  WV: 'West Virginia',
  WI: 'Wisconsin',
  WY: 'Wyoming',
} as const;
export type UsState = keyof typeof US_STATES;
export const US_STATE_CODES = Object.keys(US_STATES) as UsState[];

/**
 * Pipeline status, derived from the stage and the archive flag: open loans
 * are on the main line before Funded and not archived.
 */
export const LOAN_STATUSES = ['open', 'funded', 'closed', 'archived'] as const;
export type LoanStatus = (typeof LOAN_STATUSES)[number];
export const LOAN_STATUS_LABELS: Readonly<Record<LoanStatus, string>> = {
  open: 'Open',
  funded: 'Funded',
  closed: 'Withdrawn or declined',
  archived: 'Archived',
};

/** Closing windows the pipeline filters on, counted in the team's calendar days from today. */
export const CLOSING_WINDOWS = ['overdue', 'this_week', 'this_month'] as const;
export type ClosingWindow = (typeof CLOSING_WINDOWS)[number];

/** The pipeline's sortable columns and its page size: the API's query schema and the pipeline page both read these. */
export const PIPELINE_SORTS = [
  'borrower',
  'property',
  'amount',
  'stage',
  'progress',
  'outstanding',
  'days_in_stage',
  'closing',
  'last_activity',
  'assignee',
] as const;
export type PipelineSort = (typeof PIPELINE_SORTS)[number];
export const PIPELINE_PAGE_SIZE = 50;
export const CLOSING_WINDOW_LABELS: Readonly<Record<ClosingWindow, string>> = { overdue: 'Overdue', this_week: 'This week', this_month: 'This month' };

/** Human labels of every editable loan field, for the change history and error messages. */
export const LOAN_FIELD_LABELS = {
  borrowerName: 'Borrower name',
  borrowerEmail: 'Borrower e-mail',
  borrowerPhone: 'Borrower phone',
  entityName: 'Borrowing entity',
  propertyStreet: 'Street',
  propertyUnit: 'Unit',
  propertyCity: 'City',
  propertyState: 'State',
  propertyZip: 'ZIP',
  propertyType: 'Property type',
  unitCount: 'Number of units',
  unitRentsCents: 'Rent per unit',
  purpose: 'Purpose',
  valueCents: 'Purchase price or value',
  loanAmountCents: 'Loan amount',
  noteRatePercent: 'Note rate',
  termYears: 'Term',
  amortizationYears: 'Amortization',
  interestOnly: 'Interest-only',
  interestOnlyMonths: 'Interest-only period',
  prepaymentKind: 'Prepayment penalty',
  prepaymentYears: 'Prepayment period',
  monthlyRentCents: 'Gross monthly rent',
  strAnnualRevenueCents: 'Annual rental revenue',
  strExpensePercent: 'Expense factor',
  annualTaxesCents: 'Annual property taxes',
  annualInsuranceCents: 'Annual insurance',
  monthlyHoaCents: 'Monthly HOA',
  annualFloodInsuranceCents: 'Annual flood insurance',
  targetClosingDate: 'Target closing date',
  assigneeId: 'Assignee',
  lenderName: 'Lender',
  lenderLoanNumber: 'Lender loan number',
  internalNotes: 'Internal notes',
} as const;
export type LoanField = keyof typeof LOAN_FIELD_LABELS;
export const LOAN_FIELDS = Object.keys(LOAN_FIELD_LABELS) as LoanField[];

/** "123 Main St, Unit 4, Austin, TX 78701". */
export function formatPropertyAddress(loan: {
  propertyStreet: string;
  propertyUnit?: string | null;
  propertyCity: string;
  propertyState: string;
  propertyZip: string;
}): string {
  const street = loan.propertyUnit ? `${loan.propertyStreet}, ${loan.propertyUnit}` : loan.propertyStreet;
  return `${street}, ${loan.propertyCity}, ${loan.propertyState} ${loan.propertyZip}`;
}
