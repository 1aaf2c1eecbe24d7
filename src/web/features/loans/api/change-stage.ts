import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChangeStage, LoanDetail } from '../../../../shared/schemas/loans';
import { apiFetch, ApiError } from '../../../lib/api-client';
import { loanQueryOptions, showLoanChange } from './get-loan';

/** Moves the loan from the stage the mover saw (`from`); if it moved meanwhile, the answer is 409. */
export function changeStage(loanId: string, input: ChangeStage) {
  return apiFetch<LoanDetail>(`/api/loans/${encodeURIComponent(loanId)}/stage`, { method: 'POST', body: input });
}

export function useChangeStage(loanId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ChangeStage) => changeStage(loanId, input),
    onSuccess: (loan) => showLoanChange(queryClient, loan),
    // Someone else moved it: show where it is now.
    onError: (error) => {
      if (error instanceof ApiError && error.status === 409) void queryClient.invalidateQueries({ queryKey: loanQueryOptions(loanId).queryKey });
    },
  });
}
