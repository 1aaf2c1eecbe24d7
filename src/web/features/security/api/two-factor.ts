import { apiFetch } from '../../../lib/api-client';

/** Step one of enrolment: a new authenticator secret (as an otpauth URI) and ten backup codes. */
export function enableTwoFactor(password: string) {
  return apiFetch<{ totpURI: string; backupCodes: string[] }>('/api/auth/two-factor/enable', { method: 'POST', body: { password } });
}

/** Step two: a code from the app proves it holds the secret, and turns two-step verification on. */
export function confirmTwoFactor(code: string) {
  return apiFetch<unknown>('/api/auth/two-factor/verify-totp', { method: 'POST', body: { code } });
}

/** Replaces every backup code with ten new ones. */
export function regenerateBackupCodes(password: string) {
  return apiFetch<{ backupCodes: string[] }>('/api/auth/two-factor/generate-backup-codes', { method: 'POST', body: { password } });
}

export function disableTwoFactor(password: string) {
  return apiFetch<unknown>('/api/auth/two-factor/disable', { method: 'POST', body: { password } });
}

export function changePassword(input: { currentPassword: string; newPassword: string }) {
  return apiFetch<unknown>('/api/auth/change-password', { method: 'POST', body: { ...input, revokeOtherSessions: true } });
}
