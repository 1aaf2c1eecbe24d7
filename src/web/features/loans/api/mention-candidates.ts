import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CommentVisibility } from '../../../../shared/domain/comments';
import type { MentionCandidatesView } from '../../../../shared/schemas/comments';
import { apiFetch } from '../../../lib/api-client';
import { commentsPath, mentionCandidatesQueryKey } from './comment-keys';

/** The people a comment of this visibility may @mention: the team, and for a shared one the loan's borrowers. */
export function getMentionCandidates(loanId: string, visibility: CommentVisibility, signal?: AbortSignal) {
  return apiFetch<MentionCandidatesView>(`${commentsPath(loanId)}/mention-candidates?visibility=${visibility}`, { signal });
}

export const mentionCandidatesQueryOptions = (loanId: string, visibility: CommentVisibility) =>
  queryOptions({
    queryKey: mentionCandidatesQueryKey(loanId, visibility),
    queryFn: ({ signal }) => getMentionCandidates(loanId, visibility, signal),
    staleTime: 60_000,
    meta: { failure: 'Loading the people on this loan failed' },
  });

export function useMentionCandidates(loanId: string, visibility: CommentVisibility) {
  return useQuery(mentionCandidatesQueryOptions(loanId, visibility));
}
