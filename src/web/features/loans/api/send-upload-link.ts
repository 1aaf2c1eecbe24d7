import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SendUploadLink, UploadLinkView } from '../../../../shared/schemas/upload-links';
import { apiFetch } from '../../../lib/api-client';
import { LOAN_SCOPE } from './get-loan';
import { uploadLinksQueryOptions } from './list-upload-links';

/** Mails a third party a single-use link that uploads to this item only. */
export function sendUploadLink(loanId: string, itemId: string, input: SendUploadLink) {
  return apiFetch<UploadLinkView>(`/api/loans/${encodeURIComponent(loanId)}/checklist/items/${encodeURIComponent(itemId)}/upload-links`, { body: input });
}

export function useSendUploadLink(loanId: string, itemId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SendUploadLink) => sendUploadLink(loanId, itemId, input),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: uploadLinksQueryOptions(loanId, itemId).queryKey });
      void queryClient.invalidateQueries({ queryKey: [LOAN_SCOPE, loanId, 'activity'] });
    },
  });
}
