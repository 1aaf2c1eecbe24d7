import { queryOptions, useQuery } from '@tanstack/react-query';
import type { LoanParticipants } from '../../../../shared/schemas/participants';
import { apiFetch } from '../../../lib/api-client';
import { LOAN_SCOPE } from './get-loan';

/** The loan's borrowers and co-borrowers and its pending invitations (owners and assistants). */
export function listParticipants(loanId: string, signal?: AbortSignal) {
  return apiFetch<LoanParticipants>(`/api/loans/${encodeURIComponent(loanId)}/participants`, { signal });
}

export const participantsQueryOptions = (loanId: string) =>
  queryOptions({
    queryKey: [LOAN_SCOPE, loanId, 'participants'],
    queryFn: ({ signal }) => listParticipants(loanId, signal),
    meta: { failure: 'Loading the borrowers failed' },
  });

export function useParticipants(loanId: string) {
  return useQuery(participantsQueryOptions(loanId));
}
