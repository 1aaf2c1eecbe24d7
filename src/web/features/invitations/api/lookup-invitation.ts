import type { InvitationSummary } from '../../../../shared/schemas/invitations';
import { apiFetch } from '../../../lib/api-client';

export function lookupInvitation(token: string, signal?: AbortSignal) {
  return apiFetch<InvitationSummary>('/api/invitations/lookup', { method: 'POST', body: { token }, signal });
}
