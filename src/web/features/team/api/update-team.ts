import type { TeamView, UpdateTeam } from '../../../../shared/schemas/teams';
import { apiFetch } from '../../../lib/api-client';

/** The team's name and accent colour (owners). */
export function updateTeam(teamId: string, input: UpdateTeam) {
  return apiFetch<TeamView>(`/api/teams/${encodeURIComponent(teamId)}`, { method: 'PATCH', body: input });
}
