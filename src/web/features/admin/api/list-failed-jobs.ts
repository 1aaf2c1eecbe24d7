import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ListJobsResult } from '../../../../shared/schemas/admin';
import { apiFetch } from '../../../lib/api-client';

/** Background jobs that failed for good (e-mails that could not be sent). */
export function listFailedJobs(signal?: AbortSignal) {
  return apiFetch<ListJobsResult>('/api/admin/jobs?status=dead', { signal });
}

export const failedJobsQueryOptions = () =>
  queryOptions({
    queryKey: ['admin', 'jobs', 'dead'],
    queryFn: ({ signal }) => listFailedJobs(signal),
    meta: { failure: 'Loading the failed e-mails failed' },
  });

export function useFailedJobs() {
  return useQuery(failedJobsQueryOptions());
}
