import { apiFetch } from '../api-client';

/**
 * Asks better-auth for the session: when it is due, better-auth slides its
 * expiry forward and sets the cookie again. Null when there is no session.
 */
export function refreshSession(signal?: AbortSignal) {
  return apiFetch<{ session: { expiresAt: string } } | null>('/api/auth/get-session', { signal });
}
