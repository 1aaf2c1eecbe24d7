import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { participantsQueryOptions } from './list-participants';

/** Withdraws a pending invitation to the loan: its link stops working at once. */
export function withdrawLoanInvitation(loanId: string, invitationId: string) {
  return apiFetch<void>(`/api/loans/${encodeURIComponent(loanId)}/invitations/${encodeURIComponent(invitationId)}`, { method: 'DELETE' });
}

export function useWithdrawLoanInvitation(loanId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (invitationId: string) => withdrawLoanInvitation(loanId, invitationId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: participantsQueryOptions(loanId).queryKey }),
  });
}
