import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LoanDetail, UpdateLoan } from '../../../../shared/schemas/loans';
import { apiFetch } from '../../../lib/api-client';
import { showLoanChange } from './get-loan';

/** Sends the changed fields with the version the editor started from; a stale version answers 409. */
export function updateLoan(loanId: string, input: UpdateLoan) {
  return apiFetch<LoanDetail>(`/api/loans/${encodeURIComponent(loanId)}`, { method: 'PATCH', body: input });
}

export function useUpdateLoan(loanId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateLoan) => updateLoan(loanId, input),
    onSuccess: (loan) => showLoanChange(queryClient, loan),
  });
}
