import type { FastifyInstance } from 'fastify';
import { auditOrigin, recordAudit } from '../../audit/audit';
import { toFetchHeaders } from '../../platform/http/fetch-bridge';
import { authPath, authRouteOptions, forwardToAuth, sendAuthResponse, type AuthRouteDeps } from '../auth-bridge';

/** A signed-in password change: the policy is enforced inside better-auth (`auth-rules.ts`); the change is audited. */
export async function changePasswordRoute(app: FastifyInstance, deps: AuthRouteDeps) {
  app.post(authPath('change-password'), authRouteOptions, async (request, reply) => {
    const current = await deps.auth.api.getSession({ headers: toFetchHeaders(request) });
    const response = await forwardToAuth(deps, request, 'change-password');
    if (response.ok && current) await recordAudit(deps.db, { action: 'password.changed', actor: current.user, origin: auditOrigin(request) });
    return sendAuthResponse(request, reply, response);
  });
}
