import type { TeamMembers } from '../../../../shared/schemas/teams';
import { apiFetch } from '../../../lib/api-client';

/** The team's members and its open invitations. */
export function listMembers(teamId: string, signal?: AbortSignal) {
  return apiFetch<TeamMembers>(`/api/teams/${encodeURIComponent(teamId)}/members`, { signal });
}
