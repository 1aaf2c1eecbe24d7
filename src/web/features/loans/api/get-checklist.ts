import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { BorrowerChecklistItemView, ChecklistItemView, ChecklistView } from '../../../../shared/schemas/checklist';
import { apiFetch } from '../../../lib/api-client';
import { LOAN_SCOPE } from './get-loan';

/** The loan's checklist as the caller may see it: every item for the team, the borrower-visible ones for borrowers. */
export function getChecklist<Item extends BorrowerChecklistItemView = ChecklistItemView>(loanId: string, signal?: AbortSignal) {
  return apiFetch<ChecklistView<Item>>(`/api/loans/${encodeURIComponent(loanId)}/checklist`, { signal });
}

/** Where one item's own routes live: its status actions, uploads, versions and files. */
export const checklistItemPath = (loanId: string, itemId: string) => `/api/loans/${encodeURIComponent(loanId)}/checklist/items/${encodeURIComponent(itemId)}`;

export const checklistQueryOptions = (loanId: string) =>
  queryOptions({
    queryKey: [LOAN_SCOPE, loanId, 'checklist'],
    queryFn: ({ signal }) => getChecklist(loanId, signal),
    meta: { failure: 'Loading the checklist failed' },
  });

export function useChecklist(loanId: string) {
  return useQuery(checklistQueryOptions(loanId));
}

/** After a checklist change: the list, the loan's activity and the loan (its progress) are read again. */
export function refreshChecklist(queryClient: QueryClient, loanId: string) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: checklistQueryOptions(loanId).queryKey }),
    queryClient.invalidateQueries({ queryKey: [LOAN_SCOPE, loanId, 'activity'] }),
  ]);
}
