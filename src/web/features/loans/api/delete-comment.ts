import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { LOAN_SCOPE } from './get-loan';
import { commentsPath } from './comment-keys';
import { refreshComments } from './list-comments';

export function deleteComment(loanId: string, commentId: string) {
  return apiFetch<null>(`${commentsPath(loanId)}/${encodeURIComponent(commentId)}`, { method: 'DELETE' });
}

export function useDeleteComment(loanId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (commentId: string) => deleteComment(loanId, commentId),
    onSettled: () => Promise.all([refreshComments(queryClient, loanId), queryClient.invalidateQueries({ queryKey: [LOAN_SCOPE, loanId, 'activity'] })]),
  });
}
