import type { TeamView } from '../../../../shared/schemas/teams';
import { apiFetch } from '../../../lib/api-client';

export function removeLogo(teamId: string) {
  return apiFetch<TeamView>(`/api/teams/${encodeURIComponent(teamId)}/logo`, { method: 'DELETE' });
}
