import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LoanDetail } from '../../../../shared/schemas/loans';
import { apiFetch } from '../../../lib/api-client';
import { showLoanChange } from './get-loan';

/** Takes the loan off the pipeline (archived: true) or puts it back (false); any team member. */
export function setLoanArchived(loanId: string, archived: boolean) {
  return apiFetch<LoanDetail>(`/api/loans/${encodeURIComponent(loanId)}/${archived ? 'archive' : 'restore'}`, { method: 'POST' });
}

export function useSetLoanArchived(loanId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (archived: boolean) => setLoanArchived(loanId, archived),
    onSuccess: (loan) => showLoanChange(queryClient, loan),
  });
}
