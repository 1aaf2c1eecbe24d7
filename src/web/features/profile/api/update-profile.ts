import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Me, UpdateProfile } from '../../../../shared/schemas/me';
import { apiFetch } from '../../../lib/api-client';
import { meQueryOptions } from '../../../lib/api/get-me';

export function updateProfile(input: UpdateProfile) {
  return apiFetch<Me>('/api/me', { method: 'PATCH', body: input });
}

/** Resolves once the header's menu shows the new name. */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: meQueryOptions().queryKey }),
  });
}
