import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { LoanDetail, LoanView } from '../../../../shared/schemas/loans';
import { apiFetch } from '../../../lib/api-client';
import { TEAM_SCOPE } from '../../../lib/query-client';

/** Everything of one loan starts with this key (its file, its activity). */
export const LOAN_SCOPE = 'loans';

/** The loan as the caller may see it: the team's whole file, or a borrower's projection. */
export function getLoan(loanId: string, signal?: AbortSignal) {
  return apiFetch<LoanView>(`/api/loans/${encodeURIComponent(loanId)}`, { signal });
}

export const loanQueryOptions = (loanId: string) =>
  queryOptions({
    queryKey: [LOAN_SCOPE, loanId],
    queryFn: ({ signal }) => getLoan(loanId, signal),
    meta: { failure: 'Loading the loan failed' },
  });

export function useLoan(loanId: string) {
  return useQuery(loanQueryOptions(loanId));
}

/**
 * After a change to a loan: shows the server's answer at once, reads the
 * activity feed again, and marks the team's pipeline stale (its rows, counts
 * and CSV all start with ['teams', teamId, 'loans']).
 */
export function showLoanChange(queryClient: QueryClient, loan: LoanDetail) {
  queryClient.setQueryData(loanQueryOptions(loan.id).queryKey, { viewer: 'team', ...loan });
  void queryClient.invalidateQueries({ queryKey: [LOAN_SCOPE, loan.id, 'activity'] });
  void queryClient.invalidateQueries({ queryKey: [TEAM_SCOPE, loan.teamId, 'loans'] });
}
