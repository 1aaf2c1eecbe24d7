import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { NotificationPage } from '../../../../shared/schemas/notifications';
import { apiFetch } from '../../../lib/api-client';
import { NOTIFICATIONS_SCOPE } from './unread-count';

export function listNotifications(before: number | null, signal?: AbortSignal) {
  return apiFetch<NotificationPage>(`/api/me/notifications${before ? `?before=${before}` : ''}`, { signal });
}

/** The inbox, newest first, a page at a time (each page names the id to read on from). */
export const notificationsQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: [NOTIFICATIONS_SCOPE, 'list'],
    queryFn: ({ pageParam, signal }) => listNotifications(pageParam, signal),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.nextBefore,
    meta: { failure: 'Loading your notifications failed' },
  });

export const useNotifications = () => useInfiniteQuery(notificationsQueryOptions());
