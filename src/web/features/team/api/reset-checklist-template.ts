import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChecklistTemplateView } from '../../../../shared/schemas/checklist';
import { apiFetch } from '../../../lib/api-client';
import { checklistTemplateQueryOptions } from './get-checklist-template';

/** Back to the built-in DSCR template (owners), over the revision the editor read. */
export function resetChecklistTemplate(teamId: string, revision: string) {
  return apiFetch<ChecklistTemplateView>(`/api/teams/${encodeURIComponent(teamId)}/checklist-template`, { method: 'DELETE', body: { revision } });
}

export function useResetChecklistTemplate(teamId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (revision: string) => resetChecklistTemplate(teamId, revision),
    onSuccess: (reset) => queryClient.setQueryData(checklistTemplateQueryOptions(teamId).queryKey, reset),
  });
}
