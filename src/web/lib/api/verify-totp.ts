import { apiFetch } from '../api-client';

/** Finishes a sign-in that asked for a second step, with a code from the authenticator app. */
export function verifyTotp(code: string) {
  return apiFetch<unknown>('/api/auth/two-factor/verify-totp', { method: 'POST', body: { code } });
}
