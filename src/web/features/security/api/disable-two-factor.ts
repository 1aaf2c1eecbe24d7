import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { meQueryOptions } from '../../../lib/api/get-me';

export function disableTwoFactor(password: string) {
  return apiFetch<unknown>('/api/auth/two-factor/disable', { method: 'POST', body: { password } });
}

/** The security page follows at once (no backup codes, no "Turn off"). */
export function useDisableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: disableTwoFactor,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: meQueryOptions().queryKey }),
  });
}
