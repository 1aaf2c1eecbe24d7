import { queryOptions, useQuery } from '@tanstack/react-query';
import { SESSION_CHECK_INTERVAL_MS, sessionNeedsRefresh } from '../../../shared/constants';
import type { Me } from '../../../shared/schemas/me';
import { apiFetch } from '../api-client';
import { refreshSession } from './refresh-session';

export function getMe(signal?: AbortSignal) {
  return apiFetch<Me>('/api/me', { signal });
}

/** The signed-in person; a session about to end is refreshed first. */
async function readMe(signal: AbortSignal): Promise<Me> {
  const me = await getMe(signal);
  if (!sessionNeedsRefresh(new Date(me.sessionExpiresAt), new Date())) return me;
  // better-auth slides the session and sets its cookie again; /api/me then tells the new end.
  await refreshSession(signal);
  return getMe(signal);
}

/**
 * Who is signed in, checked every 30 seconds (seed §9), in a background tab
 * too, so the session is refreshed before it ends. A change of who this is
 * (a new name, a team, two-step verification) invalidates this query.
 */
export const meQueryOptions = () =>
  queryOptions({
    queryKey: ['me'],
    queryFn: ({ signal }) => readMe(signal),
    refetchInterval: SESSION_CHECK_INTERVAL_MS,
    refetchIntervalInBackground: true,
  });

export function useMeQuery() {
  return useQuery(meQueryOptions());
}
