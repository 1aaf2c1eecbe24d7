import { infiniteQueryOptions, useInfiniteQuery, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import type { CommentListView, ReadCursorView } from '../../../../shared/schemas/comments';
import { apiFetch } from '../../../lib/api-client';
import { commentsPath, commentsQueryKey, itemCommentsQueryKey } from './comment-keys';

/** One page of the loan's discussion (the newest threads first; `before` for older ones), or of one item's threads. */
export function listComments(loanId: string, { before, itemId }: { before?: number; itemId?: string }, signal?: AbortSignal) {
  const query = new URLSearchParams();
  if (before) query.set('before', String(before));
  if (itemId) query.set('itemId', itemId);
  const search = query.size > 0 ? `?${query.toString()}` : '';
  return apiFetch<CommentListView>(`${commentsPath(loanId)}${search}`, { signal });
}

export const commentsQueryOptions = (loanId: string, itemId?: string) =>
  infiniteQueryOptions({
    queryKey: itemId ? itemCommentsQueryKey(loanId, itemId) : commentsQueryKey(loanId),
    queryFn: ({ pageParam, signal }) => listComments(loanId, { before: pageParam, ...(itemId ? { itemId } : {}) }, signal),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (page: CommentListView) => page.nextBefore ?? undefined,
    meta: { failure: 'Loading the discussion failed' },
  });

/** The discussion (or one item's threads): pages[0] holds the newest threads and the reader's cursor. */
export function useComments(loanId: string, itemId?: string) {
  return useInfiniteQuery(commentsQueryOptions(loanId, itemId));
}

/** Reads the discussion again, every item's threads included. */
export const refreshComments = (queryClient: QueryClient, loanId: string) => queryClient.invalidateQueries({ queryKey: commentsQueryKey(loanId) });

/** Puts a new read position into the cached discussion at once, so its unread count follows without a refetch. */
export function showReadCursor(queryClient: QueryClient, loanId: string, position: ReadCursorView) {
  queryClient.setQueryData<InfiniteData<CommentListView, number | undefined>>(commentsQueryKey(loanId), (data) =>
    data ? { ...data, pages: data.pages.map((page, index) => (index === 0 ? { ...page, ...position } : page)) } : data,
  );
}
