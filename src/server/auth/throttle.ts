import { and, count, eq, gt, inArray, lt, min, sql } from 'drizzle-orm';
import { AppError } from '../../shared/errors';
import type { Db } from '../db/client';
import { authAttempt } from '../db/schema';

export interface ThrottlePolicy {
  /** How far back attempts count. */
  windowMs: number;
  /** From this many recent failures on, each attempt waits first… */
  slowAfter: number;
  /** …`baseDelayMs`, doubling per further failure, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** From this many, attempts are refused (429) until the window frees up. */
  refuseAfter: number;
}

/**
 * Sign-in: slowed from the 3rd failure within a minute, refused from the 8th
 * (so never 10 attempts a minute for one account or one address).
 */
export const SIGN_IN_THROTTLE: ThrottlePolicy = { windowMs: 60_000, slowAfter: 3, baseDelayMs: 500, maxDelayMs: 4000, refuseAfter: 8 };

/** Password-reset requests: 5 per 15 minutes for one address or one client. */
export const RESET_REQUEST_THROTTLE: ThrottlePolicy = { windowMs: 15 * 60_000, slowAfter: Infinity, baseDelayMs: 0, maxDelayMs: 0, refuseAfter: 5 };

export type ThrottleVerdict = { kind: 'go'; delayMs: number } | { kind: 'refuse'; retryAfterSeconds: number };

/**
 * The keys one attempt counts against: the client address and, when there is
 * one, the account's e-mail (trimmed, lower-cased).
 */
export function attemptKeys(kind: 'sign-in' | 'reset', ip: string, rawEmail: string) {
  const email = rawEmail.trim().toLowerCase();
  const emailKey = email ? `${kind}:email:${email}` : null;
  return { emailKey, keys: [`${kind}:ip:${ip}`, ...(emailKey ? [emailKey] : [])] };
}

/** A 429 with Retry-After for a refused attempt; nothing for one that may go. */
export function refuseWhenThrottled(verdict: ThrottleVerdict, what: string) {
  if (verdict.kind === 'refuse') {
    throw new AppError('rate_limited', `Too many ${what}; try again in ${verdict.retryAfterSeconds} seconds`, undefined, { retryAfterSeconds: verdict.retryAfterSeconds });
  }
}

/** What to do with the next attempt on any of `keys` (the most-attempted key decides). */
export async function checkThrottle(db: Db, keys: string[], policy: ThrottlePolicy, now = new Date()): Promise<ThrottleVerdict> {
  const since = new Date(now.getTime() - policy.windowMs);
  const rows = await db
    .select({ key: authAttempt.key, attempts: count(), oldest: min(authAttempt.at) })
    .from(authAttempt)
    .where(and(inArray(authAttempt.key, keys), gt(authAttempt.at, since)))
    .groupBy(authAttempt.key);
  const worst = rows.reduce<(typeof rows)[number] | null>((a, b) => (!a || b.attempts > a.attempts ? b : a), null);
  const attempts = worst?.attempts ?? 0;
  if (worst && attempts >= policy.refuseAfter) {
    const oldest = worst.oldest ? new Date(worst.oldest).getTime() : now.getTime();
    return { kind: 'refuse', retryAfterSeconds: Math.max(1, Math.ceil((oldest + policy.windowMs - now.getTime()) / 1000)) };
  }
  if (attempts >= policy.slowAfter) {
    return { kind: 'go', delayMs: Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempts - policy.slowAfter)) };
  }
  return { kind: 'go', delayMs: 0 };
}

/** Records one attempt on each key, and drops this key's attempts older than a day. */
export async function recordAttempt(db: Db, keys: string[]) {
  await db.insert(authAttempt).values(keys.map((key) => ({ key })));
  await db.delete(authAttempt).where(and(inArray(authAttempt.key, keys), lt(authAttempt.at, sql`now() - interval '1 day'`)));
}

/** Forgets the failures on a key (a successful sign-in clears its account's count). */
export async function clearAttempts(db: Db, key: string) {
  await db.delete(authAttempt).where(eq(authAttempt.key, key));
}
