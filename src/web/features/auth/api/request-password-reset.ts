import { apiFetch } from '../../../lib/api-client';

export function requestPasswordReset(email: string) {
  return apiFetch<unknown>('/api/auth/request-password-reset', { method: 'POST', body: { email } });
}
