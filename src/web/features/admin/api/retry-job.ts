import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RetryJobResult } from '../../../../shared/schemas/admin';
import { apiFetch, ApiError } from '../../../lib/api-client';
import { failedJobsQueryOptions } from './list-failed-jobs';

export function retryJob(id: number) {
  return apiFetch<RetryJobResult>(`/api/admin/jobs/${id}/retry`, { method: 'POST' });
}

/** A retried job leaves the list at once; a 404 (somebody retried it already) reads the list again. */
export function useRetryJob() {
  const queryClient = useQueryClient();
  const { queryKey } = failedJobsQueryOptions();
  return useMutation({
    mutationFn: retryJob,
    onSuccess: (_, id) => queryClient.setQueryData(queryKey, (data) => (data ? { jobs: data.jobs.filter((job) => job.id !== id) } : data)),
    onError: (error) => {
      if (error instanceof ApiError && error.status === 404) void queryClient.invalidateQueries({ queryKey });
    },
  });
}
