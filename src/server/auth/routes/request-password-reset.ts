import type { FastifyInstance } from 'fastify';
import { authPath, authRouteOptions, forwardToAuth, sendAuthResponse, type AuthRouteDeps } from '../auth-bridge';
import { takeResetRequest } from '../throttle';
import { bodyText } from './body';

/**
 * Asking for a reset mail: limited per address and per client, counted
 * before better-auth looks the address up. Known and unknown addresses get
 * the same answer in the same time: the mail is queued after the answer
 * (better-auth's background tasks, see `auth.ts`).
 */
export async function requestPasswordResetRoute(app: FastifyInstance, deps: AuthRouteDeps) {
  app.post(authPath('request-password-reset'), authRouteOptions, async (request, reply) => {
    await takeResetRequest(deps.db, { email: bodyText(request.body, 'email'), ip: request.ip });
    return sendAuthResponse(request, reply, await forwardToAuth(deps, request, 'request-password-reset'));
  });
}
