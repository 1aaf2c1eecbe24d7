import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/** Ends the person's other sessions too. */
export function changePassword(input: { currentPassword: string; newPassword: string }) {
  return apiFetch<unknown>('/api/auth/change-password', { method: 'POST', body: { ...input, revokeOtherSessions: true } });
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
