import { EVERYONE_ON_LOAN, TEAM_ON_LOAN, type LoanActionTable } from './access';

/**
 * The loan file's own actions (the loans feature declares them): everyone on
 * the loan sees it; its team sees what is internal, edits it, moves its stage
 * and invites its borrowers; only an owner deletes it. Documents and comments
 * bring their own actions with their features.
 */
export const LOAN_FILE_ACTIONS = {
  view: EVERYONE_ON_LOAN,
  'view-internal': TEAM_ON_LOAN,
  'edit-loan': TEAM_ON_LOAN,
  'change-stage': TEAM_ON_LOAN,
  'invite-participant': TEAM_ON_LOAN,
  'delete-loan': ['owner'],
} as const satisfies LoanActionTable;
export type LoanFileAction = keyof typeof LOAN_FILE_ACTIONS;
