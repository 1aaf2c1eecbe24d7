import { QueryClient } from '@tanstack/react-query';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: {
      /** What failed, for the console: 'Loading the team members failed'. */
      failure?: string;
    };
  }
}

/**
 * The signed-in app's server state, made by the shell when it mounts: a new
 * sign-in starts with an empty cache. Reads are not retried, nor repeated on
 * focus or reconnect — a failed read shows its own "Try again", and the
 * session check (`meQueryOptions`) polls on its own schedule.
 *
 * Query keys: ['me'], ['teams', teamId, …] for everything of one team (a 404
 * there means the person lost the team or its ownership), ['admin', …] for
 * the admin console.
 */
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, refetchOnReconnect: false },
      mutations: { retry: false },
    },
  });
}

/** Everything of one team starts with this key. */
export const TEAM_SCOPE = 'teams';
