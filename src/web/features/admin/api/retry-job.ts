import type { RetryJobResult } from '../../../../shared/schemas/admin';
import { apiFetch } from '../../../lib/api-client';

export function retryJob(id: number) {
  return apiFetch<RetryJobResult>(`/api/admin/jobs/${id}/retry`, { method: 'POST' });
}
