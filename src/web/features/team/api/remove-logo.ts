import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TeamView } from '../../../../shared/schemas/teams';
import { apiFetch } from '../../../lib/api-client';
import { meQueryOptions } from '../../../lib/api/get-me';

export function removeLogo(teamId: string) {
  return apiFetch<TeamView>(`/api/teams/${encodeURIComponent(teamId)}/logo`, { method: 'DELETE' });
}

/** Resolves once the header no longer shows the logo. */
export function useRemoveLogo(teamId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => removeLogo(teamId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: meQueryOptions().queryKey }),
  });
}
