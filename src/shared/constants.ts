/** Numbers fixed by the original specification (seed §9). */

/** The hero counters animate to their values over this long. */
export const COUNTER_ANIMATION_MS = 1200;

/** The web client checks the session this often… */
export const SESSION_CHECK_INTERVAL_MS = 30_000;
/** …and refreshes it when it expires within this many checks. */
export const SESSION_REFRESH_WITHIN_CHECKS = 3;

/** Realtime streams send a heartbeat this often… */
export const REALTIME_HEARTBEAT_MS = 25_000;
/** …and a client that hears nothing for heartbeat + this long reconnects. */
export const REALTIME_TIMEOUT_MS = 10_000;

/** Whether a session that ends at `expiresAt` is due for a refresh at the next check. */
export function sessionNeedsRefresh(expiresAt: Date, now: Date): boolean {
  return expiresAt.getTime() - now.getTime() <= SESSION_CHECK_INTERVAL_MS * SESSION_REFRESH_WITHIN_CHECKS;
}
