import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { refreshChecklist } from './get-checklist';

export function removeChecklistItem(loanId: string, itemId: string, version: number) {
  return apiFetch<void>(`/api/loans/${encodeURIComponent(loanId)}/checklist/items/${encodeURIComponent(itemId)}`, { method: 'DELETE', body: { version } });
}

export function useRemoveChecklistItem(loanId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ itemId, version }: { itemId: string; version: number }) => removeChecklistItem(loanId, itemId, version),
    onSettled: () => refreshChecklist(queryClient, loanId),
  });
}
