import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UnreadCount } from '../../../../shared/schemas/notifications';
import { apiFetch } from '../../../lib/api-client';
import { useLiveStreamUp } from '../../../lib/live/live-events';

/** Everything of the person's inbox starts with this key: the event stream invalidates it when the inbox changes. */
export const NOTIFICATIONS_SCOPE = 'notifications';

export function getUnreadCount(signal?: AbortSignal) {
  return apiFetch<UnreadCount>('/api/me/notifications/unread-count', { signal });
}

/** How often the bell reads its count while the tab's stream is down (a slow fallback: the stream is what keeps it live). */
export const UNREAD_FALLBACK_POLL_MS = 5 * 60_000;

/**
 * The bell's count. The live stream invalidates `['notifications']` as the
 * inbox changes (and when it opens); only while it is down does a slow read
 * keep the count near.
 */
export const unreadCountQueryOptions = (streamUp = false) =>
  queryOptions({
    queryKey: [NOTIFICATIONS_SCOPE, 'unread-count'],
    queryFn: ({ signal }) => getUnreadCount(signal),
    refetchInterval: streamUp ? false : UNREAD_FALLBACK_POLL_MS,
    meta: { failure: 'Loading the unread count failed' },
  });

export const useUnreadCount = () => useQuery(unreadCountQueryOptions(useLiveStreamUp()));
