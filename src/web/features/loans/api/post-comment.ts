import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CommentView, PostComment } from '../../../../shared/schemas/comments';
import { apiFetch } from '../../../lib/api-client';
import { LOAN_SCOPE } from './get-loan';
import { commentsPath } from './comment-keys';
import { refreshComments } from './list-comments';

export function postComment(loanId: string, comment: PostComment) {
  return apiFetch<CommentView>(commentsPath(loanId), { method: 'POST', body: comment });
}

export function usePostComment(loanId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (comment: PostComment) => postComment(loanId, comment),
    onSettled: () => Promise.all([refreshComments(queryClient, loanId), queryClient.invalidateQueries({ queryKey: [LOAN_SCOPE, loanId, 'activity'] })]),
  });
}
