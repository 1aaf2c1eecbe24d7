import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { TEAM_SCOPE } from '../../../lib/query-client';
import { LOAN_SCOPE } from './get-loan';

/** Owners only, after typing the property address; gone for good (the team's audit log keeps the record). */
export function deleteLoan(loanId: string, confirmAddress: string) {
  return apiFetch<null>(`/api/loans/${encodeURIComponent(loanId)}`, { method: 'DELETE', body: { confirmAddress } });
}

export function useDeleteLoan(loanId: string, teamId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (confirmAddress: string) => deleteLoan(loanId, confirmAddress),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: [LOAN_SCOPE, loanId] });
      void queryClient.invalidateQueries({ queryKey: [TEAM_SCOPE, teamId, 'loans'] });
    },
  });
}
