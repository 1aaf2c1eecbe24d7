import { and, count, eq, gt, inArray, lt, min, sql } from 'drizzle-orm';
import { AppError } from '../../shared/errors';
import type { Db } from '../db/client';
import { authAttempt } from '../db/schema';

/** How many attempts one key allows within a window, and how they are slowed down before that. */
export interface Limits {
  /** How far back attempts count. */
  windowMs: number;
  /** From this many attempts in the window, the next one is refused (429) until the window frees up. */
  refuseAfter: number;
  /** From this many, each further attempt first waits `baseDelayMs`, doubling per attempt, up to `maxDelayMs`. */
  slowAfter?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
}

/**
 * Sign-in throttling after NIST SP 800-63B §5.2.2: strict for one account
 * from one client address (`pair`), strict for one address across accounts
 * (`client`, credential stuffing), and loose for one account from everywhere
 * (`account`: no more than 100 failures), which does not apply to addresses
 * the account signed in from within `knownClientMs`. So nobody elsewhere can
 * keep the owner out from where they usually sign in, while online guessing
 * stays bounded from anywhere.
 */
export interface SignInPolicy {
  pair: Limits;
  client: Limits;
  account: Limits;
  knownClientMs: number;
}

export const SIGN_IN_POLICY: SignInPolicy = {
  pair: { windowMs: 15 * 60_000, refuseAfter: 10, slowAfter: 3, baseDelayMs: 500, maxDelayMs: 4000 },
  client: { windowMs: 60_000, refuseAfter: 8, slowAfter: 3, baseDelayMs: 500, maxDelayMs: 4000 },
  account: { windowMs: 60 * 60_000, refuseAfter: 100 },
  knownClientMs: 30 * 24 * 60 * 60_000,
};

/** Password-reset requests: 5 per 15 minutes for one address, and for one client. */
export const RESET_REQUEST_LIMITS: Limits = { windowMs: 15 * 60_000, refuseAfter: 5 };

export type ThrottleVerdict = { kind: 'go'; delayMs: number; attemptIds: number[] } | { kind: 'refuse'; retryAfterSeconds: number };

const normalEmail = (email: string) => email.trim().toLowerCase();

/** A 429 with Retry-After for a refused attempt; nothing for one that may go. */
export function refuseWhenThrottled(verdict: ThrottleVerdict, what: string): asserts verdict is Extract<ThrottleVerdict, { kind: 'go' }> {
  if (verdict.kind === 'refuse') {
    throw new AppError('rate_limited', `Too many ${what}; try again in ${verdict.retryAfterSeconds} seconds`, undefined, {
      retryAfterSeconds: verdict.retryAfterSeconds,
    });
  }
}

const delayFor = (limits: Limits, attempts: number) =>
  limits.slowAfter === undefined || attempts < limits.slowAfter
    ? 0
    : Math.min(limits.maxDelayMs ?? 0, (limits.baseDelayMs ?? 0) * 2 ** (attempts - limits.slowAfter));

/**
 * Counts and records one attempt on every key as one atomic step: the keys
 * are locked (transaction-scoped advisory locks, in a fixed order), their
 * attempts within each window counted, and, unless one key is at its limit,
 * the attempt recorded before anyone else may count. So attempts in flight at
 * the same moment are counted like attempts one after another. A refused
 * attempt records nothing; the most-attempted key decides the wait.
 */
export async function takeAttempt(db: Db, rules: { key: string; limits: Limits }[], now = new Date()): Promise<ThrottleVerdict> {
  const sorted = [...rules].sort((a, b) => a.key.localeCompare(b.key));
  return db.transaction(async (tx) => {
    for (const { key } of sorted) await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
    let delayMs = 0;
    for (const { key, limits } of sorted) {
      const since = new Date(now.getTime() - limits.windowMs);
      const [row] = await tx
        .select({ attempts: count(), oldest: min(authAttempt.at) })
        .from(authAttempt)
        .where(and(eq(authAttempt.key, key), gt(authAttempt.at, since)));
      const attempts = row?.attempts ?? 0;
      if (attempts >= limits.refuseAfter) {
        const oldest = row?.oldest ? new Date(row.oldest).getTime() : now.getTime();
        return { kind: 'refuse', retryAfterSeconds: Math.max(1, Math.ceil((oldest + limits.windowMs - now.getTime()) / 1000)) };
      }
      delayMs = Math.max(delayMs, delayFor(limits, attempts));
      // What no window can count any more is dropped on the way.
      await tx.delete(authAttempt).where(and(eq(authAttempt.key, key), lt(authAttempt.at, since)));
    }
    const inserted = await tx
      .insert(authAttempt)
      .values(sorted.map(({ key }) => ({ key, at: now })))
      .returning({ id: authAttempt.id });
    return { kind: 'go', delayMs, attemptIds: inserted.map((r) => r.id) };
  });
}

/** Takes back attempts that turned out not to be guesses (a success, or a request refused before any check). */
export async function forgiveAttempts(db: Db, attemptIds: number[]) {
  if (attemptIds.length > 0) await db.delete(authAttempt).where(inArray(authAttempt.id, attemptIds));
}

/** The throttle keys of a sign-in for `email` from client address `ip`. */
export function signInKeys(email: string, ip: string) {
  const account = normalEmail(email);
  return {
    pair: `sign-in:pair:${account}|${ip}`,
    client: `sign-in:ip:${ip}`,
    account: `sign-in:account:${account}`,
    known: `sign-in:known:${account}|${ip}`,
  };
}

/** One password check under the sign-in throttle: what it waits first, and what to record once it is known. */
export interface SignInAttempt {
  delayMs: number;
  /** The password was right: the account's failures are forgiven and this address becomes known to it. */
  succeeded(): Promise<void>;
  /** The password was wrong: the attempt stays counted. */
  failed(): Promise<void>;
  /** No password was checked (bad input): the attempt is taken back. */
  abandoned(): Promise<void>;
}

/**
 * Starts a sign-in attempt for `email` from `ip`, or throws 429. Used by the
 * sign-in route and by accepting an invitation with an existing account.
 */
export async function beginSignIn(db: Db, { email, ip }: { email: string; ip: string }, policy: SignInPolicy = SIGN_IN_POLICY): Promise<SignInAttempt> {
  const keys = signInKeys(email, ip);
  const rules = [{ key: keys.client, limits: policy.client }, ...(normalEmail(email) ? [{ key: keys.pair, limits: policy.pair }] : [])];
  if (normalEmail(email) && !(await isKnownClient(db, keys.known, policy.knownClientMs))) rules.push({ key: keys.account, limits: policy.account });
  const verdict = await takeAttempt(db, rules);
  refuseWhenThrottled(verdict, 'sign-in attempts');
  return {
    delayMs: verdict.delayMs,
    async succeeded() {
      await db.transaction(async (tx) => {
        await forgiveAttempts(tx, verdict.attemptIds);
        await tx.delete(authAttempt).where(inArray(authAttempt.key, [keys.pair, keys.account, keys.known]));
        await tx.insert(authAttempt).values({ key: keys.known });
      });
    },
    async failed() {},
    abandoned: () => forgiveAttempts(db, verdict.attemptIds),
  };
}

async function isKnownClient(db: Db, knownKey: string, withinMs: number) {
  const since = new Date(Date.now() - withinMs);
  const [row] = await db
    .select({ n: count() })
    .from(authAttempt)
    .where(and(eq(authAttempt.key, knownKey), gt(authAttempt.at, since)));
  return (row?.n ?? 0) > 0;
}

/** Counts a password-reset request against its e-mail and its client address, or throws 429. */
export async function takeResetRequest(db: Db, { email, ip }: { email: string; ip: string }, limits: Limits = RESET_REQUEST_LIMITS) {
  const account = normalEmail(email);
  const rules = [{ key: `reset:ip:${ip}`, limits }, ...(account ? [{ key: `reset:email:${account}`, limits }] : [])];
  refuseWhenThrottled(await takeAttempt(db, rules), 'password-reset requests');
}
