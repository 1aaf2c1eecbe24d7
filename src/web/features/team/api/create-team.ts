import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateTeam, TeamView } from '../../../../shared/schemas/teams';
import { apiFetch, ApiError } from '../../../lib/api-client';
import { meQueryOptions } from '../../../lib/api/get-me';

/** A broker founds their team and becomes its owner. */
export function createTeam(input: CreateTeam) {
  return apiFetch<TeamView>('/api/teams', { body: input });
}

/** Resolves once the app knows the new team (the header shows it). */
export function useCreateTeam() {
  const queryClient = useQueryClient();
  const refreshMe = () => queryClient.invalidateQueries({ queryKey: meQueryOptions().queryKey });
  return useMutation({
    mutationFn: createTeam,
    onSuccess: refreshMe,
    onError: (error) => {
      // Already in a team (another tab founded it): the app should show it.
      if (error instanceof ApiError && error.code === 'conflict') void refreshMe();
    },
  });
}
