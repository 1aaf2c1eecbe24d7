import type { FastifyInstance, FastifyRequest } from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';
import { invalidField } from '../../shared/errors';
import type { Db } from '../db/client';
import { sendFetchResponse, toFetchHeaders } from '../platform/http/fetch-bridge';
import { apiNotFoundProblem, PROBLEM_CONTENT_TYPE } from '../platform/http/problem';
import { AUTH_BASE_PATH, userForResetToken, type Auth } from './auth';
import { checkPassword } from './password-policy';
import { challengedAccount } from './two-factor-challenge';
import { recordAudit, auditOrigin } from '../audit/audit';
import { findUserByEmail } from '../invitations/invitations.queries';
import { attemptKeys, checkThrottle, clearAttempts, recordAttempt, refuseWhenThrottled, RESET_REQUEST_THROTTLE, SIGN_IN_THROTTLE, type ThrottlePolicy } from './throttle';

export interface AuthRouteOptions {
  auth: Auth;
  db: Db;
  brandName: string;
  signInThrottle?: ThrottlePolicy;
}

interface AuthAnswer {
  twoFactorRedirect?: boolean;
  user?: { id: string; email: string };
  /** better-auth's error code, on failures. */
  code?: string;
}

/** better-auth's answers to a wrong code in a live two-step challenge. */
const WRONG_CODE = new Set(['INVALID_CODE', 'INVALID_BACKUP_CODE']);

/** The JSON body of a better-auth answer, read without consuming it. */
async function jsonOf(response: Response): Promise<AuthAnswer | null> {
  try {
    return (await response.clone().json()) as AuthAnswer | null;
  } catch {
    return null;
  }
}

const bodyField = (body: unknown, name: string) => {
  const value = body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' ? value : '';
};

/** The throttle keys of one attempt, from its client address and the e-mail its body names. */
const throttleKeys = (kind: 'sign-in' | 'reset', request: FastifyRequest) => attemptKeys(kind, request.ip, bodyField(request.body, 'email'));

/**
 * better-auth's own endpoints (sign-in, sign-out, session, password reset…)
 * under /api/auth, public to the access layer because better-auth
 * authenticates each itself. Some get our rules first: sign-in is throttled
 * per account and per client address, reset requests are limited, a new
 * password must pass the password policy, and no device is ever trusted to
 * skip two-step verification. Sign-ins, two-step changes and resets are
 * written to the audit log. Public sign-up is disabled in the library's
 * configuration.
 */
export async function authRoutes(app: FastifyInstance, { auth, db, brandName, signInThrottle = SIGN_IN_THROTTLE }: AuthRouteOptions) {
  const forward = (request: FastifyRequest) => {
    const url = new URL(request.url, `${request.protocol}://${request.host}`);
    const body = request.method === 'GET' || request.body === undefined ? undefined : JSON.stringify(request.body);
    return auth.handler(new Request(url, { method: request.method, headers: toFetchHeaders(request), body }));
  };

  app.route({
    method: ['GET', 'POST'],
    url: `${AUTH_BASE_PATH}/*`,
    config: { access: 'public', rateLimit: { max: 60, timeWindow: 60_000 } },
    async handler(request, reply) {
      const action = request.method === 'POST' ? (request.params as { '*': string })['*'] : null;

      const origin = auditOrigin(request);

      if (action === 'sign-in/email') {
        const { emailKey, keys } = throttleKeys('sign-in', request);
        const verdict = await checkThrottle(db, keys, signInThrottle);
        refuseWhenThrottled(verdict, 'sign-in attempts');
        if (verdict.kind === 'go' && verdict.delayMs > 0) await sleep(verdict.delayMs);
        const response = await forward(request);
        if (response.status === 401) {
          await recordAttempt(db, keys);
          const email = bodyField(request.body, 'email').trim();
          const known = email ? await findUserByEmail(db, email) : undefined;
          await recordAudit(db, { action: 'sign_in.failed', actor: null, subject: known ? { id: known.id, email: known.email } : { id: null, email }, origin, data: { reason: 'wrong e-mail or password' } });
        } else if (response.ok) {
          if (emailKey) await clearAttempts(db, emailKey);
          const body = await jsonOf(response);
          // With two-step verification on, the session only comes with the code (below).
          if (!body?.twoFactorRedirect && body?.user) await recordAudit(db, { action: 'sign_in.succeeded', actor: body.user, origin, data: { method: 'password' } });
        }
        return sendFetchResponse(reply, response);
      }

      if (action === 'two-factor/verify-totp' || action === 'two-factor/verify-backup-code') {
        // Every new sign-in asks for a code: no device is ever remembered.
        if (request.body && typeof request.body === 'object') (request.body as Record<string, unknown>).trustDevice = false;
        const before = await auth.api.getSession({ headers: toFetchHeaders(request) });
        // Read before answering: a right code uses the challenge up.
        const challenged = before ? null : await challengedAccount(auth, request);
        const response = await forward(request);
        const method = action === 'two-factor/verify-totp' ? 'authenticator code' : 'backup code';
        const body = await jsonOf(response);
        if (response.ok) {
          if (!before && body?.user) await recordAudit(db, { action: 'sign_in.succeeded', actor: body.user, origin, data: { method: `password and ${method}` } });
          else if (before && !before.user.twoFactorEnabled) {
            // Sessions opened with the password alone, before there was a code to ask for, end here:
            // from now on every session of the account has passed the second step.
            const cookie = response.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
            await auth.api.revokeOtherSessions({ headers: new Headers({ cookie }) });
            await recordAudit(db, { action: 'mfa.enrolled', actor: before.user, origin });
          }
        } else if (challenged && WRONG_CODE.has(body?.code ?? '')) {
          // Only an answer to a real challenge (the password was right) is a failed sign-in worth keeping.
          await recordAudit(db, { action: 'sign_in.failed', actor: null, subject: challenged, origin, data: { reason: `right password, wrong ${method}` } });
        }
        return sendFetchResponse(reply, response);
      }

      if (action === 'two-factor/generate-backup-codes' || action === 'two-factor/disable') {
        const before = await auth.api.getSession({ headers: toFetchHeaders(request) });
        const response = await forward(request);
        if (response.ok && before) {
          await recordAudit(db, { action: action === 'two-factor/disable' ? 'mfa.disabled' : 'mfa.backup_codes_regenerated', actor: before.user, origin });
        }
        return sendFetchResponse(reply, response);
      }

      // Profile changes go through PATCH /api/me, which holds them to our rules.
      if (action === 'update-user') return reply.status(404).type(PROBLEM_CONTENT_TYPE).send(apiNotFoundProblem(request.url));

      if (action === 'change-password') {
        const current = await auth.api.getSession({ headers: toFetchHeaders(request) });
        if (current) {
          const verdict = checkPassword(bodyField(request.body, 'newPassword'), { email: current.user.email, name: current.user.name, brandName });
          if (!verdict.ok) throw invalidField('newPassword', verdict.message);
        }
        const response = await forward(request);
        if (response.ok && current) await recordAudit(db, { action: 'password.changed', actor: current.user, origin });
        return sendFetchResponse(reply, response);
      }

      if (action === 'request-password-reset') {
        const { keys } = throttleKeys('reset', request);
        refuseWhenThrottled(await checkThrottle(db, keys, RESET_REQUEST_THROTTLE), 'password-reset requests');
        await recordAttempt(db, keys);
        return sendFetchResponse(reply, await forward(request));
      }

      if (action === 'reset-password') {
        const token = bodyField(request.body, 'token');
        const owner = token ? await userForResetToken(auth, token) : null;
        // An unknown or expired token is better-auth's to refuse; a valid one must bring a good password.
        if (owner) {
          const verdict = checkPassword(bodyField(request.body, 'newPassword'), { email: owner.email, name: owner.name, brandName });
          if (!verdict.ok) throw invalidField('newPassword', verdict.message);
        }
        const response = await forward(request);
        if (response.ok && owner) await recordAudit(db, { action: 'password.reset', actor: { id: owner.id, email: owner.email }, origin });
        return sendFetchResponse(reply, response);
      }

      return sendFetchResponse(reply, await forward(request));
    },
  });
}
