import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TeamView, UpdateTeam } from '../../../../shared/schemas/teams';
import { apiFetch } from '../../../lib/api-client';
import { meQueryOptions } from '../../../lib/api/get-me';

/** The team's name and accent colour (owners). */
export function updateTeam(teamId: string, input: UpdateTeam) {
  return apiFetch<TeamView>(`/api/teams/${encodeURIComponent(teamId)}`, { method: 'PATCH', body: input });
}

/** Resolves once the header shows the new branding. */
export function useUpdateTeam(teamId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateTeam) => updateTeam(teamId, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: meQueryOptions().queryKey }),
  });
}
