import { apiFetch } from '../../../lib/api-client';

export function signIn(input: { email: string; password: string }) {
  return apiFetch<unknown>('/api/auth/sign-in/email', { method: 'POST', body: input });
}
