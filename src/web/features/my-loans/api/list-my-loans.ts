import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MyLoans } from '../../../../shared/schemas/participants';
import { apiFetch } from '../../../lib/api-client';

/** The loans the signed-in person follows as a borrower or co-borrower, of any team. */
export function listMyLoans(signal?: AbortSignal) {
  return apiFetch<MyLoans>('/api/my-loans', { signal });
}

export const myLoansQueryOptions = () =>
  queryOptions({
    queryKey: ['my-loans'],
    queryFn: ({ signal }) => listMyLoans(signal),
    meta: { failure: 'Loading your loans failed' },
  });

export function useMyLoans() {
  return useQuery(myLoansQueryOptions());
}
