import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { VersionsView } from '../../../../shared/schemas/documents';
import { apiFetch } from '../../../lib/api-client';
import { checklistItemPath, checklistQueryOptions } from './get-checklist';
import { LOAN_SCOPE } from './get-loan';

/** An item's versions, newest first, each with its files and its review. */
export function listVersions(loanId: string, itemId: string, signal?: AbortSignal) {
  return apiFetch<VersionsView>(`${checklistItemPath(loanId, itemId)}/versions`, { signal });
}

// Under the checklist's key: whatever refreshes the checklist refreshes the versions shown with it.
export const versionsQueryOptions = (loanId: string, itemId: string) =>
  queryOptions({
    queryKey: [...checklistQueryOptions(loanId).queryKey, itemId, 'versions'],
    queryFn: ({ signal }) => listVersions(loanId, itemId, signal),
    meta: { failure: 'Loading the documents failed' },
  });

export function useVersions(loanId: string, itemId: string) {
  return useQuery(versionsQueryOptions(loanId, itemId));
}

/** After an upload or a review: the checklist, the versions, the activity and the loan itself (its progress) are read again. */
export function refreshDocuments(queryClient: QueryClient, loanId: string) {
  return queryClient.invalidateQueries({ queryKey: [LOAN_SCOPE, loanId] });
}
