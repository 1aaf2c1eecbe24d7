import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UploadLinksView } from '../../../../shared/schemas/upload-links';
import { apiFetch } from '../../../lib/api-client';
import { LOAN_SCOPE } from './get-loan';

/** The upload links sent for one item, newest first, each with its state (never its token). */
export function listUploadLinks(loanId: string, itemId: string, signal?: AbortSignal) {
  return apiFetch<UploadLinksView>(`/api/loans/${encodeURIComponent(loanId)}/checklist/items/${encodeURIComponent(itemId)}/upload-links`, { signal });
}

export const uploadLinksQueryOptions = (loanId: string, itemId: string) =>
  queryOptions({
    queryKey: [LOAN_SCOPE, loanId, 'upload-links', itemId],
    queryFn: ({ signal }) => listUploadLinks(loanId, itemId, signal),
    meta: { failure: 'Loading the upload links failed' },
  });

export function useUploadLinks(loanId: string, itemId: string) {
  return useQuery(uploadLinksQueryOptions(loanId, itemId));
}
