import type { AcceptInvitation, AcceptInvitationResult, InvitationSummary } from '../../../../shared/schemas/invitations';
import { apiFetch } from '../../../lib/api-client';

export function lookupInvitation(token: string, signal?: AbortSignal) {
  return apiFetch<InvitationSummary>('/api/invitations/lookup', { method: 'POST', body: { token }, signal });
}

export function acceptInvitation(input: AcceptInvitation) {
  return apiFetch<AcceptInvitationResult>('/api/invitations/accept', { method: 'POST', body: input });
}
