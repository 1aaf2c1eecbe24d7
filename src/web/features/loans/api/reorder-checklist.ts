import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChecklistView } from '../../../../shared/schemas/checklist';
import { apiFetch } from '../../../lib/api-client';
import { checklistQueryOptions, refreshChecklist } from './get-checklist';

export function reorderChecklist(loanId: string, itemIds: string[]) {
  return apiFetch<ChecklistView>(`/api/loans/${encodeURIComponent(loanId)}/checklist/order`, { method: 'PUT', body: { itemIds } });
}

/** Moves items at once on the page, and puts them back if the server refuses. */
export function useReorderChecklist(loanId: string) {
  const queryClient = useQueryClient();
  const key = checklistQueryOptions(loanId).queryKey;
  return useMutation({
    mutationFn: (itemIds: string[]) => reorderChecklist(loanId, itemIds),
    onMutate: async (itemIds) => {
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData(key);
      if (before) {
        const byId = new Map(before.items.map((item) => [item.id, item]));
        const items = itemIds.flatMap((id, position) => {
          const item = byId.get(id);
          return item ? [{ ...item, position }] : [];
        });
        queryClient.setQueryData(key, { ...before, items });
      }
      return { before };
    },
    onError: (_error, _ids, context) => {
      if (context?.before) queryClient.setQueryData(key, context.before);
    },
    onSettled: () => refreshChecklist(queryClient, loanId),
  });
}
