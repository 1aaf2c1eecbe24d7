import type { FastifyInstance, FastifyRequest } from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError, invalidField } from '../../shared/errors';
import type { Db } from '../db/client';
import { sendFetchResponse, toFetchHeaders } from '../platform/http/fetch-bridge';
import { AUTH_BASE_PATH, userForResetToken, type Auth } from './auth';
import { checkPassword } from './password-policy';
import { checkThrottle, clearAttempts, recordAttempt, RESET_REQUEST_THROTTLE, SIGN_IN_THROTTLE, type ThrottlePolicy, type ThrottleVerdict } from './throttle';

export interface AuthRouteOptions {
  auth: Auth;
  db: Db;
  brandName: string;
  signInThrottle?: ThrottlePolicy;
}

const bodyField = (body: unknown, name: string) => {
  const value = body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' ? value : '';
};

/**
 * The throttle keys of one attempt: the client address and, when the body
 * names one, the account's e-mail (trimmed, lower-cased).
 */
function throttleKeys(kind: 'sign-in' | 'reset', request: FastifyRequest) {
  const email = bodyField(request.body, 'email').trim().toLowerCase();
  const emailKey = email ? `${kind}:email:${email}` : null;
  return { emailKey, keys: [`${kind}:ip:${request.ip}`, ...(emailKey ? [emailKey] : [])] };
}

function refuseWhenThrottled(verdict: ThrottleVerdict, what: string) {
  if (verdict.kind === 'refuse') {
    throw new AppError('rate_limited', `Too many ${what}; try again in ${verdict.retryAfterSeconds} seconds`, undefined, { retryAfterSeconds: verdict.retryAfterSeconds });
  }
}

/**
 * better-auth's own endpoints (sign-in, sign-out, session, password reset…)
 * under /api/auth, public to the access layer because better-auth
 * authenticates each itself. Three get our rules first: sign-in is throttled
 * per account and per client address, reset requests are limited, and a new
 * password must pass the password policy. Public sign-up is disabled in the
 * library's configuration.
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

      if (action === 'sign-in/email') {
        const { emailKey, keys } = throttleKeys('sign-in', request);
        const verdict = await checkThrottle(db, keys, signInThrottle);
        refuseWhenThrottled(verdict, 'sign-in attempts');
        if (verdict.kind === 'go' && verdict.delayMs > 0) await sleep(verdict.delayMs);
        const response = await forward(request);
        if (response.status === 401) await recordAttempt(db, keys);
        else if (response.ok && emailKey) await clearAttempts(db, emailKey);
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
        return sendFetchResponse(reply, await forward(request));
      }

      return sendFetchResponse(reply, await forward(request));
    },
  });
}
