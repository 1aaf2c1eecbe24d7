import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChecklistTemplateInput, ChecklistTemplateView } from '../../../../shared/schemas/checklist';
import { apiFetch } from '../../../lib/api-client';
import { checklistTemplateQueryOptions } from './get-checklist-template';

/** Replaces the whole template (owners), over the revision the editor read: someone else's save since then answers 409. */
export function saveChecklistTemplate(teamId: string, input: ChecklistTemplateInput) {
  return apiFetch<ChecklistTemplateView>(`/api/teams/${encodeURIComponent(teamId)}/checklist-template`, { method: 'PUT', body: input });
}

export function useSaveChecklistTemplate(teamId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ChecklistTemplateInput) => saveChecklistTemplate(teamId, input),
    onSuccess: (saved) => queryClient.setQueryData(checklistTemplateQueryOptions(teamId).queryKey, saved),
  });
}
