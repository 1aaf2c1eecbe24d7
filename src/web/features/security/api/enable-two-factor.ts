import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/** Step one of enrolment: a new authenticator secret (as an otpauth URI) and ten backup codes. */
export function enableTwoFactor(password: string) {
  return apiFetch<{ totpURI: string; backupCodes: string[] }>('/api/auth/two-factor/enable', { method: 'POST', body: { password } });
}

export function useEnableTwoFactor() {
  return useMutation({ mutationFn: enableTwoFactor });
}
