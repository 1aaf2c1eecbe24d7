import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ChecklistTemplateView } from '../../../../shared/schemas/checklist';
import { apiFetch } from '../../../lib/api-client';
import { TEAM_SCOPE } from '../../../lib/query-client';

/** The team's checklist template, or the built-in DSCR one while it has none, with the revision to save over. */
export function getChecklistTemplate(teamId: string, signal?: AbortSignal) {
  return apiFetch<ChecklistTemplateView>(`/api/teams/${encodeURIComponent(teamId)}/checklist-template`, { signal });
}

export const checklistTemplateQueryOptions = (teamId: string) =>
  queryOptions({
    queryKey: [TEAM_SCOPE, teamId, 'checklist-template'],
    queryFn: ({ signal }) => getChecklistTemplate(teamId, signal),
    meta: { failure: 'Loading the checklist template failed' },
  });

export function useChecklistTemplate(teamId: string) {
  return useQuery(checklistTemplateQueryOptions(teamId));
}
