import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { InviteAssistant, PendingInvitation } from '../../../../shared/schemas/teams';
import { apiFetch } from '../../../lib/api-client';
import { refreshAfterFailedChange, showMembersChange } from '../../../lib/api/list-members';

/** Invites an assistant by e-mail; inviting the same address again replaces the earlier link. */
export function inviteAssistant(teamId: string, input: InviteAssistant) {
  return apiFetch<PendingInvitation>(`/api/teams/${encodeURIComponent(teamId)}/invitations`, { body: input });
}

/** Invites an address, or sends it a fresh link: the new invitation replaces any earlier one, newest first. */
export function useInviteAssistant(teamId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: InviteAssistant) => inviteAssistant(teamId, input),
    onSuccess: (invitation) =>
      showMembersChange(queryClient, teamId, (data) => ({
        ...data,
        invitations: [invitation, ...data.invitations.filter((i) => i.email.toLowerCase() !== invitation.email.toLowerCase())],
      })),
    onError: (error) => refreshAfterFailedChange(queryClient, teamId, error),
  });
}
