import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BorrowerChecklistItemView, ChecklistItemView } from '../../../../shared/schemas/checklist';
import { apiFetch } from '../../../lib/api-client';
import { refreshChecklist } from './get-checklist';

/** The status actions of an item, by the path the API serves each at. */
export const ITEM_STATUS_PATHS = {
  waive: 'waive',
  reopen: 'reopen',
  'claim-not-applicable': 'not-applicable',
  'confirm-not-applicable': 'not-applicable/confirm',
  'reject-not-applicable': 'not-applicable/reject',
} as const;
export type ItemStatusChange = keyof typeof ITEM_STATUS_PATHS;

export interface ItemStatusRequest {
  itemId: string;
  action: ItemStatusChange;
  version: number;
  reason?: string;
}

/** The item as the caller sees it: the team's view, or a borrower's (their "doesn't apply to me"). */
export function changeItemStatus(loanId: string, { itemId, action, version, reason }: ItemStatusRequest) {
  return apiFetch<ChecklistItemView | BorrowerChecklistItemView>(
    `/api/loans/${encodeURIComponent(loanId)}/checklist/items/${encodeURIComponent(itemId)}/${ITEM_STATUS_PATHS[action]}`,
    {
      method: 'POST',
      body: reason === undefined ? { version } : { version, reason },
    },
  );
}

export function useChangeItemStatus(loanId: string) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: (request: ItemStatusRequest) => changeItemStatus(loanId, request), onSettled: () => refreshChecklist(queryClient, loanId) });
}
