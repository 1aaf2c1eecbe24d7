import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReadCursorView } from '../../../../shared/schemas/comments';
import { apiFetch } from '../../../lib/api-client';
import { readCursorQueryKey } from './comment-keys';
import { showReadCursor } from './list-comments';

const readCursorPath = (loanId: string) => `/api/loans/${encodeURIComponent(loanId)}/read-cursor`;

export function getReadCursor(loanId: string, signal?: AbortSignal) {
  return apiFetch<ReadCursorView>(readCursorPath(loanId), { signal });
}

/** Moves the reader's cursor forward (the server never moves it back), and shows the new unread count at once. */
export function markRead(loanId: string, cursor: number) {
  return apiFetch<ReadCursorView>(readCursorPath(loanId), { method: 'PUT', body: { cursor } });
}

export function useMarkRead(loanId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (cursor: number) => markRead(loanId, cursor),
    onSuccess: (position) => {
      queryClient.setQueryData(readCursorQueryKey(loanId), position);
      showReadCursor(queryClient, loanId, position);
    },
  });
}
