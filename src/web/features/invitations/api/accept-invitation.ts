import type { AcceptInvitation, AcceptInvitationResult } from '../../../../shared/schemas/invitations';
import { apiFetch } from '../../../lib/api-client';

export function acceptInvitation(input: AcceptInvitation) {
  return apiFetch<AcceptInvitationResult>('/api/invitations/accept', { method: 'POST', body: input });
}
