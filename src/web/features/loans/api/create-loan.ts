import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateLoan, LoanDetail } from '../../../../shared/schemas/loans';
import { apiFetch } from '../../../lib/api-client';
import { showLoanChange } from './get-loan';

/** Opens a loan file at Lead (owners and assistants). */
export function createLoan(teamId: string, input: CreateLoan) {
  return apiFetch<LoanDetail>(`/api/teams/${encodeURIComponent(teamId)}/loans`, { method: 'POST', body: input });
}

export function useCreateLoan(teamId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateLoan) => createLoan(teamId, input),
    onSuccess: (loan) => showLoanChange(queryClient, loan),
  });
}
