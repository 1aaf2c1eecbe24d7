import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { LOAN_SCOPE } from './get-loan';
import { participantsQueryOptions } from './list-participants';

/** Takes a borrower or co-borrower off the loan: their next request finds nothing. */
export function removeParticipant(loanId: string, userId: string) {
  return apiFetch<void>(`/api/loans/${encodeURIComponent(loanId)}/participants/${encodeURIComponent(userId)}`, { method: 'DELETE' });
}

export function useRemoveParticipant(loanId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => removeParticipant(loanId, userId),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: participantsQueryOptions(loanId).queryKey });
      void queryClient.invalidateQueries({ queryKey: [LOAN_SCOPE, loanId, 'activity'] });
    },
  });
}
