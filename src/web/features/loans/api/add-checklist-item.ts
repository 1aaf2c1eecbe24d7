import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AddItem, ChecklistItemView } from '../../../../shared/schemas/checklist';
import { apiFetch } from '../../../lib/api-client';
import { refreshChecklist } from './get-checklist';

export function addChecklistItem(loanId: string, item: AddItem) {
  return apiFetch<ChecklistItemView>(`/api/loans/${encodeURIComponent(loanId)}/checklist/items`, { method: 'POST', body: item });
}

export function useAddChecklistItem(loanId: string) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: (item: AddItem) => addChecklistItem(loanId, item), onSettled: () => refreshChecklist(queryClient, loanId) });
}
