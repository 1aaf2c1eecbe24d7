import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ItemStatus } from '../../../../shared/domain/checklist-status';
import type { ChecklistItemView, ChecklistView } from '../../../../shared/schemas/checklist';
import { apiFetch } from '../../../lib/api-client';
import { checklistItemPath, checklistQueryOptions } from './get-checklist';
import { refreshDocuments } from './list-versions';

/** The item as a review left it. */
export interface ReviewedItem {
  status: ItemStatus;
  version: number;
  /** An approval only: why the document, approved, is already Expired (too old for the closing), else null. */
  notice?: string | null;
}

/**
 * The team's review of an item's newest version, one request per step:
 * `open` (Uploaded → In review, when a team member opens it), `approve` with
 * the document's date, `needs-revision` with the reason the borrower reads.
 * Each names the item version it read; a stale one is a 409.
 */
export type ReviewStep =
  | { step: 'open'; itemId: string; versionId: string; version: number }
  | { step: 'approve'; itemId: string; versionId: string; version: number; documentDate: string }
  | { step: 'needs-revision'; itemId: string; versionId: string; version: number; reason: string };

export function reviewVersion(loanId: string, { step, itemId, versionId, ...body }: ReviewStep) {
  return apiFetch<ReviewedItem>(`${checklistItemPath(loanId, itemId)}/versions/${encodeURIComponent(versionId)}/${step}`, { body });
}

/** Shows the item's new tag and version at once (a later action names the new version), then reads everything again. */
export function useReviewVersion(loanId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (step: ReviewStep) => reviewVersion(loanId, step),
    onSuccess: ({ status, version }, { itemId }) =>
      queryClient.setQueryData(checklistQueryOptions(loanId).queryKey, (list: ChecklistView<ChecklistItemView> | undefined) =>
        list ? { ...list, items: list.items.map((entry) => (entry.id === itemId ? { ...entry, status, version } : entry)) } : list,
      ),
    onSettled: () => refreshDocuments(queryClient, loanId),
  });
}
