import { AsyncLocalStorage } from 'node:async_hooks';
import { APIError, createAuthMiddleware, getSessionFromCtx } from 'better-auth/api';
import { symmetricDecrypt } from 'better-auth/crypto';
import { requiresMfa } from '../../shared/domain/access';
import { grantsOf } from '../accounts/accounts.queries';
import type { Db } from '../db/client';
import { checkPassword } from './password-policy';
import { base32Decode, claimTotpStep, totpStepOf } from './totp';

/** better-auth's error codes for our own refusals, which the bridge's routes turn into problem+json. */
export const WEAK_PASSWORD = 'WEAK_PASSWORD';
export const CODE_REUSED = 'CODE_REUSED';
export const MFA_STAYS_ON = 'MFA_STAYS_ON';

/** better-auth's two-factor plugin names its challenge cookie so (plugins/two-factor/constant). */
export const TWO_FACTOR_COOKIE = 'two_factor';

/**
 * The better-auth endpoint path ("/sign-in/email") that the bridge's route
 * checked, for as long as it forwards that one request.
 */
const bridged = new AsyncLocalStorage<string>();

/** Runs `forward` as the request for better-auth's endpoint `path`, checked by the route that calls this. */
export const runBridged = <T>(path: string, forward: () => Promise<T>): Promise<T> => bridged.run(path, forward);

type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

export interface AuthRulesOptions {
  db: Db;
  brandName: string;
  totp: { digits: number; periodSeconds: number };
}

/**
 * Coverly's rules inside better-auth's own pipeline (`hooks.before`), keyed
 * on the endpoint path better-auth resolved, so that no spelling of a URL,
 * and no direct `auth.api` call, can route around them:
 * - an HTTP request runs only the endpoint the bridge's route checked it for;
 * - the profile endpoint `update-user` is closed to HTTP (PATCH /api/me holds names to our rules);
 * - no device is ever trusted to skip the second step;
 * - an authenticator code is accepted once (RFC 6238 §5.2);
 * - people who must use two-step verification cannot turn it off;
 * - a new password, by change or by reset, passes the password policy.
 */
export function authRules({ db, brandName, totp }: AuthRulesOptions) {
  return createAuthMiddleware(async (ctx) => {
    if (ctx.request && bridged.getStore() !== ctx.path) throw new APIError('NOT_FOUND');
    switch (ctx.path) {
      case '/two-factor/disable': {
        // Platform admins, brokers and team members keep their authenticator (`requiresMfa`, shared/domain/access.ts).
        const session = await getSessionFromCtx(ctx);
        if (session && requiresMfa(await grantsOf(db, session.user.id))) {
          throw new APIError('FORBIDDEN', { code: MFA_STAYS_ON, message: 'Two-step verification stays on for platform admins, brokers and their teams' });
        }
        return;
      }
      case '/update-user':
        if (ctx.request) throw new APIError('NOT_FOUND');
        return;
      case '/two-factor/verify-totp':
        await refuseReplayedCode(ctx, db, totp);
        return withoutTrustedDevice(ctx);
      case '/two-factor/verify-backup-code':
        return withoutTrustedDevice(ctx);
      case '/change-password': {
        const session = await getSessionFromCtx(ctx);
        if (session) enforcePasswordPolicy(ctx.body?.newPassword, session.user, brandName);
        return;
      }
      case '/reset-password': {
        const owner = await resetTokenOwner(ctx.context, stringOr(ctx.body?.token) || stringOr(ctx.query?.token));
        if (owner) enforcePasswordPolicy(ctx.body?.newPassword, owner, brandName);
        return;
      }
      default:
        return;
    }
  });
}

const stringOr = (value: unknown) => (typeof value === 'string' ? value : '');

const withoutTrustedDevice = (ctx: HookContext) => ({ context: { body: { ...(ctx.body as object), trustDevice: false } } });

function enforcePasswordPolicy(newPassword: unknown, person: { email: string; name: string }, brandName: string) {
  const verdict = checkPassword(stringOr(newPassword), { email: person.email, name: person.name, brandName });
  if (!verdict.ok) throw new APIError('BAD_REQUEST', { code: WEAK_PASSWORD, message: verdict.message });
}

/** The account a password-reset token belongs to, while the token is valid. */
export async function resetTokenOwner(
  context: { internalAdapter: Pick<HookContext['context']['internalAdapter'], 'findVerificationValue' | 'findUserById'> },
  token: string,
) {
  if (!token) return null;
  const verification = await context.internalAdapter.findVerificationValue(`reset-password:${token}`);
  if (!verification || verification.expiresAt < new Date()) return null;
  return context.internalAdapter.findUserById(verification.value);
}

/** The account a TOTP code is for: the signed-in one (enrolling), or the one whose sign-in waits for its second step. */
async function totpAccount(ctx: HookContext): Promise<string | null> {
  const session = await getSessionFromCtx(ctx);
  if (session) return session.user.id;
  const identifier = await ctx.getSignedCookie(ctx.context.createAuthCookie(TWO_FACTOR_COOKIE).name, ctx.context.secret);
  if (!identifier) return null;
  const challenge = await ctx.context.internalAdapter.findVerificationValue(identifier);
  return challenge && challenge.expiresAt > new Date() ? challenge.value : null;
}

/** Secrets imported from elsewhere are stored as `base32:<secret>` (better-auth's totp/index). */
async function authenticatorKey(ctx: HookContext, stored: string): Promise<Uint8Array> {
  const secret = await symmetricDecrypt({ key: ctx.context.secretConfig, data: stored });
  return secret.startsWith('base32:') ? base32Decode(secret.slice(7)) : new TextEncoder().encode(secret);
}

/**
 * Refuses a right code that was used before: better-auth accepts any code of
 * the current 30-second step and one either side, so without this the same
 * code would open a second session (NIST SP 800-63B §5.1.4.2). The step is
 * claimed before better-auth answers, so two requests with one code at the
 * same moment get one session between them.
 */
async function refuseReplayedCode(ctx: HookContext, db: Db, totp: AuthRulesOptions['totp']) {
  const code = stringOr(ctx.body?.code);
  const userId = code ? await totpAccount(ctx) : null;
  if (!userId) return;
  const row = await ctx.context.adapter.findOne<{ secret: string }>({ model: 'twoFactor', where: [{ field: 'userId', value: userId }] });
  if (!row) return;
  const step = totpStepOf(await authenticatorKey(ctx, row.secret), code, totp);
  // A wrong code is better-auth's to refuse and count.
  if (step === null) return;
  if (!(await claimTotpStep(db, userId, step))) {
    throw new APIError('UNAUTHORIZED', { code: CODE_REUSED, message: 'This code was used already. Enter the next code from your authenticator app.' });
  }
}
