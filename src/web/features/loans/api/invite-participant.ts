import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { InviteParticipant, LoanInvitationView } from '../../../../shared/schemas/participants';
import { apiFetch } from '../../../lib/api-client';
import { LOAN_SCOPE } from './get-loan';
import { participantsQueryOptions } from './list-participants';

/** Invites a borrower or co-borrower; inviting the same address again replaces the earlier link. */
export function inviteParticipant(loanId: string, input: InviteParticipant) {
  return apiFetch<LoanInvitationView>(`/api/loans/${encodeURIComponent(loanId)}/invitations`, { body: input });
}

export function useInviteParticipant(loanId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: InviteParticipant) => inviteParticipant(loanId, input),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: participantsQueryOptions(loanId).queryKey });
      void queryClient.invalidateQueries({ queryKey: [LOAN_SCOPE, loanId, 'activity'] });
    },
  });
}
