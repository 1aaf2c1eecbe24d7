import { apiFetch } from '../../../lib/api-client';

export function removeMember(teamId: string, userId: string) {
  return apiFetch<void>(`/api/teams/${encodeURIComponent(teamId)}/members/${encodeURIComponent(userId)}`, { method: 'DELETE' });
}
