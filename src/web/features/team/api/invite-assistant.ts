import type { InviteAssistant, PendingInvitation } from '../../../../shared/schemas/teams';
import { apiFetch } from '../../../lib/api-client';

/** Invites an assistant by e-mail; inviting the same address again replaces the earlier link. */
export function inviteAssistant(teamId: string, input: InviteAssistant) {
  return apiFetch<PendingInvitation>(`/api/teams/${encodeURIComponent(teamId)}/invitations`, { body: input });
}
