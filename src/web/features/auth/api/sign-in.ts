import { apiFetch } from '../../../lib/api-client';

/** `twoFactorRedirect`: the password was right; the account wants a code before it opens a session. */
export function signIn(input: { email: string; password: string }) {
  return apiFetch<{ twoFactorRedirect?: boolean } | null>('/api/auth/sign-in/email', { method: 'POST', body: input });
}
