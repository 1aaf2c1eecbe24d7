import { apiFetch } from '../../../lib/api-client';

export function signOut() {
  return apiFetch<unknown>('/api/auth/sign-out', { method: 'POST', body: {} });
}
