import { apiFetch } from '../api-client';

/** Finishes a sign-in that asked for a second step, with one of the account's one-time backup codes. */
export function verifyBackupCode(code: string) {
  return apiFetch<unknown>('/api/auth/two-factor/verify-backup-code', { method: 'POST', body: { code } });
}
