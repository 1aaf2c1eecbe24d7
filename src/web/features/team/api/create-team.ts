import type { CreateTeam, TeamView } from '../../../../shared/schemas/teams';
import { apiFetch } from '../../../lib/api-client';

/** A broker founds their team and becomes its owner. */
export function createTeam(input: CreateTeam) {
  return apiFetch<TeamView>('/api/teams', { body: input });
}
