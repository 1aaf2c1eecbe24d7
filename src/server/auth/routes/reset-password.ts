import type { FastifyInstance } from 'fastify';
import { auditOrigin, recordAudit } from '../../audit/audit';
import { authPath, authRouteOptions, forwardToAuth, sendAuthResponse, type AuthRouteDeps } from '../auth-bridge';
import { resetTokenOwner } from '../auth-rules';
import { bodyText } from './body';

/**
 * Setting a new password with a reset token from the mail. The token comes in
 * the body only (the query string is not forwarded on POST); the policy is
 * enforced inside better-auth (`auth-rules.ts`); a reset is audited.
 */
export async function resetPasswordRoute(app: FastifyInstance, deps: AuthRouteDeps) {
  app.post(authPath('reset-password'), authRouteOptions, async (request, reply) => {
    // Read before answering: a successful reset uses the token up.
    const owner = await resetTokenOwner(await deps.auth.$context, bodyText(request.body, 'token'));
    const response = await forwardToAuth(deps, request, 'reset-password');
    if (response.ok && owner)
      await recordAudit(deps.db, { action: 'password.reset', actor: { id: owner.id, email: owner.email }, origin: auditOrigin(request) });
    return sendAuthResponse(request, reply, response);
  });
}
