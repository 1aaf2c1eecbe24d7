import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { ActivityView } from '../../../../shared/schemas/loans';
import { apiFetch } from '../../../lib/api-client';
import { LOAN_SCOPE } from './get-loan';

export interface ActivityPage {
  items: ActivityView[];
  /** Pass as `before` for the next (older) page; null at the start of the loan. */
  nextBefore: number | null;
}

/** The loan's activity, newest first, a page at a time. */
export function listActivity(loanId: string, before: number | undefined, signal?: AbortSignal) {
  const query = before ? `?before=${before}` : '';
  return apiFetch<ActivityPage>(`/api/loans/${encodeURIComponent(loanId)}/activity${query}`, { signal });
}

export const activityQueryOptions = (loanId: string) =>
  infiniteQueryOptions({
    queryKey: [LOAN_SCOPE, loanId, 'activity'],
    queryFn: ({ pageParam, signal }) => listActivity(loanId, pageParam, signal),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (page: ActivityPage) => page.nextBefore ?? undefined,
    meta: { failure: 'Loading the activity failed' },
  });

export function useActivity(loanId: string) {
  return useInfiniteQuery(activityQueryOptions(loanId));
}
