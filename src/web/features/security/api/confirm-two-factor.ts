import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/** Step two: a code from the app proves it holds the secret, and turns two-step verification on. */
export function confirmTwoFactor(code: string) {
  return apiFetch<unknown>('/api/auth/two-factor/verify-totp', { method: 'POST', body: { code } });
}

export function useConfirmTwoFactor() {
  return useMutation({ mutationFn: confirmTwoFactor });
}
