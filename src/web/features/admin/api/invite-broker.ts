import type { InviteBrokerResult } from '../../../../shared/schemas/admin';
import { apiFetch } from '../../../lib/api-client';

export function inviteBroker(entryId: string) {
  return apiFetch<InviteBrokerResult>(`/api/admin/waitlist/${encodeURIComponent(entryId)}/invite`, { method: 'POST' });
}
