import type { BorrowerChecklistItemView, ChecklistItemView } from '../schemas/checklist';
import { EVERYONE_ON_LOAN, TEAM_ON_LOAN, type LoanActionTable } from './access';
import { documentCounts } from './checklist-status';

/**
 * The checklist's loan actions: everyone on the loan reads the checklist
 * (borrowers its borrower-visible items only); the team manages it; a
 * borrower may say an item does not apply to them.
 */
export const CHECKLIST_ACTIONS = {
  'view-checklist': EVERYONE_ON_LOAN,
  'manage-checklist': TEAM_ON_LOAN,
  'claim-not-applicable': ['borrower', 'co_borrower'],
} as const satisfies LoanActionTable;

/**
 * A borrower's view of an item: an allow-list, so a field added to the team's
 * view never leaks. `position` is the item's place among the items the
 * borrower sees, never the team's number: that one counts the internal items
 * too, and its gaps would show where they are (`borrowerChecklist`).
 */
export function toBorrowerChecklistItem(item: ChecklistItemView, position: number): BorrowerChecklistItemView {
  return {
    id: item.id,
    position,
    label: item.label,
    category: item.category,
    required: item.required,
    provider: item.provider,
    status: item.status,
    reason: item.reason,
    notApplicableConfirmed: item.notApplicableConfirmed,
    dueDate: item.dueDate,
    version: item.version,
  };
}

/** The borrower-visible items of a checklist (in the team's order) as a borrower sees them, numbered 0, 1, 2… over those alone. */
export function borrowerChecklist(items: readonly ChecklistItemView[]): BorrowerChecklistItemView[] {
  return items.filter((item) => item.borrowerVisible).map((item, position) => toBorrowerChecklistItem(item, position));
}

/** Required items not yet settled: the pipeline's "outstanding documents" (`documentCounts`, one definition). */
export const outstandingRequired = (items: readonly Pick<ChecklistItemView, 'required' | 'status' | 'notApplicableConfirmed'>[]) =>
  documentCounts(items).outstanding;
