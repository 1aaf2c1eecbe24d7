import type { FastifyInstance } from 'fastify';
import { auditOrigin, recordAudit } from '../../audit/audit';
import { toFetchHeaders } from '../../platform/http/fetch-bridge';
import { authPath, authRouteOptions, forwardToAuth, sendAuthResponse, type AuthRouteDeps } from '../auth-bridge';

const AUDITED = { 'two-factor/generate-backup-codes': 'mfa.backup_codes_regenerated', 'two-factor/disable': 'mfa.disabled' } as const;

/** New backup codes and turning two-step verification off: better-auth checks the password; both are audited. */
export async function manageTwoFactorRoutes(app: FastifyInstance, deps: AuthRouteDeps) {
  for (const [action, auditAction] of Object.entries(AUDITED)) {
    app.post(authPath(action), authRouteOptions, async (request, reply) => {
      const before = await deps.auth.api.getSession({ headers: toFetchHeaders(request) });
      const response = await forwardToAuth(deps, request, action);
      if (response.ok && before) await recordAudit(deps.db, { action: auditAction, actor: before.user, origin: auditOrigin(request) });
      return sendAuthResponse(request, reply, response);
    });
  }
}
