import type { FastifyInstance } from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';
import { auditOrigin, recordAudit } from '../../audit/audit';
import { findUserByEmail } from '../../accounts/accounts.queries';
import { authPath, authRouteOptions, forwardToAuth, jsonOf, sendAuthResponse, type AuthRouteDeps } from '../auth-bridge';
import { beginSignIn } from '../throttle';
import { bodyText } from './body';

/**
 * Password sign-in, throttled per account and client address
 * (`throttle.ts`) and audited. With two-step verification on, the session
 * only comes with the code (`verify-two-factor.ts`).
 */
export async function signInRoute(app: FastifyInstance, deps: AuthRouteDeps) {
  const { db } = deps;
  app.post(authPath('sign-in/email'), authRouteOptions, async (request, reply) => {
    const email = bodyText(request.body, 'email').trim();
    const attempt = await beginSignIn(db, { email, ip: request.ip }, deps.signInPolicy);
    if (attempt.delayMs > 0) await sleep(attempt.delayMs);
    let response: Response;
    try {
      response = await forwardToAuth(deps, request, 'sign-in/email');
    } catch (error) {
      await attempt.abandoned();
      throw error;
    }
    const origin = auditOrigin(request);
    if (response.status === 401) {
      await attempt.failed();
      const known = email ? await findUserByEmail(db, email) : undefined;
      await recordAudit(db, {
        action: 'sign_in.failed',
        actor: null,
        subject: known ? { id: known.id, email: known.email } : { id: null, email },
        origin,
        data: { reason: 'wrong e-mail or password' },
      });
    } else if (response.ok) {
      await attempt.succeeded();
      const body = await jsonOf<{ twoFactorRedirect: boolean; user: { id: string; email: string } }>(response);
      if (!body?.twoFactorRedirect && body?.user)
        await recordAudit(db, { action: 'sign_in.succeeded', actor: body.user, origin, data: { method: 'password' } });
    } else {
      await attempt.abandoned();
    }
    return sendAuthResponse(request, reply, response);
  });
}
