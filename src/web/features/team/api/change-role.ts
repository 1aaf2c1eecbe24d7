import type { ChangeRole } from '../../../../shared/schemas/teams';
import { apiFetch } from '../../../lib/api-client';

export function changeRole(teamId: string, userId: string, input: ChangeRole) {
  return apiFetch<void>(`/api/teams/${encodeURIComponent(teamId)}/members/${encodeURIComponent(userId)}`, { method: 'PATCH', body: input });
}
