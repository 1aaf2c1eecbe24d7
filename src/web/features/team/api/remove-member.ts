import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { refreshAfterFailedChange, showMembersChange } from '../../../lib/api/list-members';

/** Removes a member; their loans go to `handOverTo` (another member), or are left unassigned without one. */
export function removeMember(teamId: string, userId: string, handOverTo?: string) {
  return apiFetch<void>(`/api/teams/${encodeURIComponent(teamId)}/members/${encodeURIComponent(userId)}`, {
    method: 'DELETE',
    ...(handOverTo ? { body: { handOverTo } } : {}),
  });
}

export function useRemoveMember(teamId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, handOverTo }: { userId: string; handOverTo?: string }) => removeMember(teamId, userId, handOverTo),
    onSuccess: (_, { userId }) => showMembersChange(queryClient, teamId, (data) => ({ ...data, members: data.members.filter((m) => m.userId !== userId) })),
    onError: (error) => refreshAfterFailedChange(queryClient, teamId, error),
  });
}
