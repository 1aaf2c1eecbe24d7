import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UploadLinkView } from '../../../../shared/schemas/upload-links';
import { apiFetch } from '../../../lib/api-client';
import { LOAN_SCOPE } from './get-loan';
import { uploadLinksQueryOptions } from './list-upload-links';

/** Withdraws a link: from now on it answers that it was withdrawn. */
export function revokeUploadLink(loanId: string, itemId: string, linkId: string) {
  return apiFetch<UploadLinkView>(
    `/api/loans/${encodeURIComponent(loanId)}/checklist/items/${encodeURIComponent(itemId)}/upload-links/${encodeURIComponent(linkId)}`,
    { method: 'DELETE' },
  );
}

export function useRevokeUploadLink(loanId: string, itemId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (linkId: string) => revokeUploadLink(loanId, itemId, linkId),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: uploadLinksQueryOptions(loanId, itemId).queryKey });
      void queryClient.invalidateQueries({ queryKey: [LOAN_SCOPE, loanId, 'activity'] });
    },
  });
}
