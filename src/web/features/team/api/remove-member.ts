import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { refreshAfterFailedChange, showMembersChange } from '../../../lib/api/list-members';

export function removeMember(teamId: string, userId: string) {
  return apiFetch<void>(`/api/teams/${encodeURIComponent(teamId)}/members/${encodeURIComponent(userId)}`, { method: 'DELETE' });
}

export function useRemoveMember(teamId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => removeMember(teamId, userId),
    onSuccess: (_, userId) => showMembersChange(queryClient, teamId, (data) => ({ ...data, members: data.members.filter((m) => m.userId !== userId) })),
    onError: (error) => refreshAfterFailedChange(queryClient, teamId, error),
  });
}
