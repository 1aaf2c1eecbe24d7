import { TEAM_ON_LOAN, type LoanActionTable } from './access';

/**
 * The lender package (decision 015): owners and assistants download it; a
 * borrower on the loan gets the unknown-route 404 like anyone else.
 */
export const LENDER_PACKAGE_ACTIONS = {
  'download-package': TEAM_ON_LOAN,
} as const satisfies LoanActionTable;

/** The cover sheet's name in the zip: first, before the items' folders. */
export const COVER_SHEET_NAME = '00 Cover sheet.pdf';
