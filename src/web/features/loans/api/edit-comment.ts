import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CommentView, EditComment } from '../../../../shared/schemas/comments';
import { apiFetch } from '../../../lib/api-client';
import { LOAN_SCOPE } from './get-loan';
import { commentsPath } from './comment-keys';
import { refreshComments } from './list-comments';

export function editComment(loanId: string, commentId: string, edit: EditComment) {
  return apiFetch<CommentView>(`${commentsPath(loanId)}/${encodeURIComponent(commentId)}`, { method: 'PATCH', body: edit });
}

export function useEditComment(loanId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ commentId, ...edit }: EditComment & { commentId: string }) => editComment(loanId, commentId, edit),
    onSettled: () => Promise.all([refreshComments(queryClient, loanId), queryClient.invalidateQueries({ queryKey: [LOAN_SCOPE, loanId, 'activity'] })]),
  });
}
