import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { TeamMembers } from '../../../shared/schemas/teams';
import { apiFetch, ApiError } from '../api-client';
import { TEAM_SCOPE } from '../query-client';
import { meQueryOptions } from './get-me';

/** The team's members and its open invitations. */
export function listMembers(teamId: string, signal?: AbortSignal) {
  return apiFetch<TeamMembers>(`/api/teams/${encodeURIComponent(teamId)}/members`, { signal });
}

export const membersQueryOptions = (teamId: string) =>
  queryOptions({
    queryKey: [TEAM_SCOPE, teamId, 'members'],
    queryFn: ({ signal }) => listMembers(teamId, signal),
    meta: { failure: 'Loading the team members failed' },
  });

export function useMembers(teamId: string) {
  return useQuery(membersQueryOptions(teamId));
}

/**
 * After a change to the team's people: shows it at once, then reads the list
 * again to confirm it. A row left stale meanwhile (an invitation sent again
 * has a new id) must not be acted on.
 */
export function showMembersChange(queryClient: QueryClient, teamId: string, change: (data: TeamMembers) => TeamMembers) {
  const { queryKey } = membersQueryOptions(teamId);
  queryClient.setQueryData(queryKey, (data) => (data ? change(data) : data));
  void queryClient.invalidateQueries({ queryKey });
}

/**
 * After a change failed: a 404 means the member or invitation is gone (or so
 * is this owner's right, or their team) and a 409 that the list is out of
 * date, so both read it again; after a 404, who this is, too.
 */
export function refreshAfterFailedChange(queryClient: QueryClient, teamId: string, error: unknown) {
  if (!(error instanceof ApiError) || (error.status !== 404 && error.status !== 409)) return;
  void queryClient.invalidateQueries({ queryKey: membersQueryOptions(teamId).queryKey });
  if (error.status === 404) void queryClient.invalidateQueries({ queryKey: meQueryOptions().queryKey });
}
