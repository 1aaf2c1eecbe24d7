import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { refreshAfterFailedChange, showMembersChange } from '../../../lib/api/list-members';

export function withdrawInvitation(teamId: string, invitationId: string) {
  return apiFetch<void>(`/api/teams/${encodeURIComponent(teamId)}/invitations/${encodeURIComponent(invitationId)}`, { method: 'DELETE' });
}

export function useWithdrawInvitation(teamId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (invitationId: string) => withdrawInvitation(teamId, invitationId),
    onSuccess: (_, invitationId) =>
      showMembersChange(queryClient, teamId, (data) => ({ ...data, invitations: data.invitations.filter((i) => i.id !== invitationId) })),
    onError: (error) => refreshAfterFailedChange(queryClient, teamId, error),
  });
}
