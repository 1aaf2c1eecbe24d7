import type { LoanPurpose, PropertyType } from './loan-fields';

/**
 * The built-in DSCR checklist (issue "Document checklist…"): which documents
 * a loan needs, chosen by its purpose and property type. Each team starts
 * from this and edits its own copy; a new loan takes the team's version.
 * Pure data and rules, shared by the server (which creates the items) and the
 * template editor.
 */

export const CHECKLIST_CATEGORIES = ['application', 'identity', 'entity', 'credit', 'property', 'income', 'assets', 'insurance', 'appraisal', 'title'] as const;
export type ChecklistCategory = (typeof CHECKLIST_CATEGORIES)[number];

export const CATEGORY_LABELS: Readonly<Record<ChecklistCategory, string>> = {
  application: 'Application',
  identity: 'Identity',
  entity: 'Entity',
  credit: 'Credit and background',
  property: 'Property',
  income: 'Rental income',
  assets: 'Assets and reserves',
  insurance: 'Insurance',
  appraisal: 'Appraisal',
  title: 'Title',
};

/** Who provides an item: the loan's borrowers, or a third party with an upload link (title, insurance, appraiser…). */
export const ITEM_PROVIDERS = ['borrower', 'third_party'] as const;
export type ItemProvider = (typeof ITEM_PROVIDERS)[number];
export const ITEM_PROVIDER_LABELS: Readonly<Record<ItemProvider, string>> = { borrower: 'Borrower', third_party: 'Third party' };

export interface TemplateItem {
  /** Stable within a template: how a loan's items are matched when its purpose or property type changes. */
  key: string;
  label: string;
  category: ChecklistCategory;
  required: boolean;
  provider: ItemProvider;
  /** Shown to the loan's borrowers; internal items are the team's alone. */
  borrowerVisible: boolean;
  /** Due this many days after the item is requested; none when omitted. */
  dueInDays?: number;
  /** How long an approved document stays good, from its date (bank statements 60 days…); forever when omitted. */
  validityDays?: number;
  /** The purposes and property types it applies to; all when omitted. */
  purposes?: readonly LoanPurpose[];
  propertyTypes?: readonly PropertyType[];
}

const REFINANCES: readonly LoanPurpose[] = ['rate_term_refinance', 'cash_out_refinance'];
const ONE_UNIT: readonly PropertyType[] = ['single_family', 'condo', 'short_term_rental'];

export const DSCR_TEMPLATE: readonly TemplateItem[] = [
  {
    key: 'application-1003',
    label: 'Loan application (1003)',
    category: 'application',
    required: true,
    provider: 'borrower',
    borrowerVisible: true,
    dueInDays: 3,
  },
  {
    key: 'government-id',
    label: 'Government-issued photo ID',
    category: 'identity',
    required: true,
    provider: 'borrower',
    borrowerVisible: true,
    dueInDays: 3,
  },
  {
    key: 'articles-of-organization',
    label: 'Articles of organization',
    category: 'entity',
    required: true,
    provider: 'borrower',
    borrowerVisible: true,
    dueInDays: 5,
  },
  { key: 'operating-agreement', label: 'Operating agreement', category: 'entity', required: true, provider: 'borrower', borrowerVisible: true, dueInDays: 5 },
  {
    key: 'ein-letter',
    label: 'EIN letter (IRS SS-4 confirmation)',
    category: 'entity',
    required: true,
    provider: 'borrower',
    borrowerVisible: true,
    dueInDays: 5,
  },
  {
    key: 'good-standing',
    label: 'Certificate of good standing',
    category: 'entity',
    required: true,
    provider: 'borrower',
    borrowerVisible: true,
    dueInDays: 7,
    validityDays: 90,
  },
  {
    key: 'business-purpose-affidavit',
    label: 'Business-purpose affidavit',
    category: 'application',
    required: true,
    provider: 'borrower',
    borrowerVisible: true,
    dueInDays: 5,
  },
  {
    key: 'non-owner-occupancy',
    label: 'Non-owner-occupancy affidavit',
    category: 'application',
    required: true,
    provider: 'borrower',
    borrowerVisible: true,
    dueInDays: 5,
  },
  {
    key: 'credit-authorization',
    label: 'Credit and background (OFAC) authorization',
    category: 'credit',
    required: true,
    provider: 'borrower',
    borrowerVisible: true,
    dueInDays: 2,
    validityDays: 90,
  },
  {
    key: 'real-estate-owned',
    label: 'Schedule of real estate owned',
    category: 'application',
    required: true,
    provider: 'borrower',
    borrowerVisible: true,
    dueInDays: 5,
  },
  {
    key: 'purchase-contract',
    label: 'Purchase contract',
    category: 'property',
    required: true,
    provider: 'borrower',
    borrowerVisible: true,
    dueInDays: 3,
    purposes: ['purchase'],
  },
  {
    key: 'mortgage-statement',
    label: 'Current mortgage statement',
    category: 'property',
    required: true,
    provider: 'borrower',
    borrowerVisible: true,
    dueInDays: 5,
    validityDays: 60,
    purposes: REFINANCES,
  },
  {
    key: 'payoff-statement',
    label: 'Payoff statement',
    category: 'property',
    required: true,
    provider: 'third_party',
    borrowerVisible: false,
    dueInDays: 10,
    validityDays: 30,
    purposes: REFINANCES,
  },
  {
    key: 'mortgage-verification',
    label: 'Verification of mortgage (VOM)',
    category: 'credit',
    required: true,
    provider: 'third_party',
    borrowerVisible: false,
    dueInDays: 10,
    validityDays: 90,
    purposes: REFINANCES,
  },
  {
    key: 'leases',
    label: 'Signed leases',
    category: 'income',
    required: true,
    provider: 'borrower',
    borrowerVisible: true,
    dueInDays: 5,
    propertyTypes: ['single_family', 'condo', 'two_to_four', 'five_plus'],
  },
  {
    key: 'rent-roll',
    label: 'Rent roll',
    category: 'income',
    required: true,
    provider: 'borrower',
    borrowerVisible: true,
    dueInDays: 5,
    validityDays: 60,
    propertyTypes: ['two_to_four', 'five_plus'],
  },
  {
    key: 'str-income-history',
    label: 'Short-term-rental income history (12 months)',
    category: 'income',
    required: true,
    provider: 'borrower',
    borrowerVisible: true,
    dueInDays: 5,
    propertyTypes: ['short_term_rental'],
  },
  {
    key: 'operating-statement-t12',
    label: 'Trailing-12-month operating statement',
    category: 'income',
    required: true,
    provider: 'borrower',
    borrowerVisible: true,
    dueInDays: 7,
    validityDays: 90,
    propertyTypes: ['five_plus'],
  },
  {
    key: 'bank-statements',
    label: 'Bank statements, last 2–3 months (reserves)',
    category: 'assets',
    required: true,
    provider: 'borrower',
    borrowerVisible: true,
    dueInDays: 5,
    validityDays: 60,
  },
  {
    key: 'hazard-insurance',
    label: 'Hazard insurance quote',
    category: 'insurance',
    required: true,
    provider: 'third_party',
    borrowerVisible: true,
    dueInDays: 14,
  },
  {
    key: 'flood-certificate',
    label: 'Flood certificate',
    category: 'insurance',
    required: true,
    provider: 'third_party',
    borrowerVisible: false,
    validityDays: 90,
  },
  {
    key: 'hoa-questionnaire',
    label: 'HOA questionnaire',
    category: 'property',
    required: true,
    provider: 'third_party',
    borrowerVisible: false,
    dueInDays: 14,
    propertyTypes: ['condo'],
  },
  {
    key: 'appraisal-1007',
    label: 'Appraisal with rent schedule (1007)',
    category: 'appraisal',
    required: true,
    provider: 'third_party',
    borrowerVisible: true,
    validityDays: 120,
    propertyTypes: ONE_UNIT,
  },
  {
    key: 'appraisal-1025',
    label: 'Appraisal, small residential income (1025)',
    category: 'appraisal',
    required: true,
    provider: 'third_party',
    borrowerVisible: true,
    validityDays: 120,
    propertyTypes: ['two_to_four'],
  },
  {
    key: 'appraisal-commercial',
    label: 'Commercial appraisal',
    category: 'appraisal',
    required: true,
    provider: 'third_party',
    borrowerVisible: true,
    validityDays: 120,
    propertyTypes: ['five_plus'],
  },
  {
    key: 'title-commitment',
    label: 'Title commitment',
    category: 'title',
    required: true,
    provider: 'third_party',
    borrowerVisible: false,
    dueInDays: 14,
    validityDays: 90,
  },
];

export const appliesTo = (item: Pick<TemplateItem, 'purposes' | 'propertyTypes'>, purpose: LoanPurpose, propertyType: PropertyType) =>
  (!item.purposes || item.purposes.includes(purpose)) && (!item.propertyTypes || item.propertyTypes.includes(propertyType));

/** The items of `template` a loan of this purpose and property type needs, in template order. */
export function checklistFor(template: readonly TemplateItem[], purpose: LoanPurpose, propertyType: PropertyType): TemplateItem[] {
  return template.filter((item) => appliesTo(item, purpose, propertyType));
}

/**
 * When a loan's purpose or property type changes: the items its new deal
 * needs that it lacks (to offer the broker), and the ones it has that no
 * longer apply (to ask about; nothing is removed without asking).
 */
export function checklistChanges(template: readonly TemplateItem[], haveKeys: Iterable<string>, purpose: LoanPurpose, propertyType: PropertyType) {
  const have = new Set(haveKeys);
  const needed = checklistFor(template, purpose, propertyType);
  const neededKeys = new Set(needed.map((item) => item.key));
  return {
    missing: needed.filter((item) => !have.has(item.key)),
    noLongerApplies: template.filter((item) => have.has(item.key) && !neededKeys.has(item.key)).map((item) => item.key),
  };
}
