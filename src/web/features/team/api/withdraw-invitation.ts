import { apiFetch } from '../../../lib/api-client';

export function withdrawInvitation(teamId: string, invitationId: string) {
  return apiFetch<void>(`/api/teams/${encodeURIComponent(teamId)}/invitations/${encodeURIComponent(invitationId)}`, { method: 'DELETE' });
}
