import type { FastifyInstance } from 'fastify';
import { auditOrigin, recordAudit } from '../../audit/audit';
import { toFetchHeaders } from '../../platform/http/fetch-bridge';
import { authPath, authRouteOptions, forwardToAuth, jsonOf, sendAuthResponse, type AuthRouteDeps } from '../auth-bridge';
import { CODE_REUSED } from '../auth-rules';
import { challengedAccount } from '../two-factor-challenge';

/** better-auth's answers to a wrong code in a live two-step challenge, and ours to a code used before. */
const REFUSED_CODE: Record<string, string> = { INVALID_CODE: 'wrong', INVALID_BACKUP_CODE: 'wrong', [CODE_REUSED]: 'reused' };

const METHODS = { 'two-factor/verify-totp': 'authenticator code', 'two-factor/verify-backup-code': 'backup code' } as const;

/**
 * The second step: a code from the authenticator app or a backup code. It
 * finishes a sign-in (audited either way), or confirms an authenticator
 * being enrolled, which ends the account's password-only sessions. No device
 * is ever trusted and no code accepted twice (`auth-rules.ts`).
 */
export async function verifyTwoFactorRoutes(app: FastifyInstance, deps: AuthRouteDeps) {
  const { auth, db } = deps;
  for (const [action, method] of Object.entries(METHODS)) {
    app.post(authPath(action), authRouteOptions, async (request, reply) => {
      const origin = auditOrigin(request);
      const before = await auth.api.getSession({ headers: toFetchHeaders(request) });
      // Read before answering: a right code uses the challenge up.
      const challenged = before ? null : await challengedAccount(auth, request);
      const response = await forwardToAuth(deps, request, action);
      const body = await jsonOf<{ user: { id: string; email: string }; code: string }>(response);
      if (response.ok) {
        if (!before && body?.user) await recordAudit(db, { action: 'sign_in.succeeded', actor: body.user, origin, data: { method: `password and ${method}` } });
        else if (before && !before.user.twoFactorEnabled) {
          // Sessions opened with the password alone, before there was a code to ask for, end here:
          // from now on every session of the account has passed the second step.
          const cookie = response.headers
            .getSetCookie()
            .map((c) => c.split(';')[0])
            .join('; ');
          await auth.api.revokeOtherSessions({ headers: new Headers({ cookie }) });
          await recordAudit(db, { action: 'mfa.enrolled', actor: before.user, origin });
        }
      } else if (challenged && body?.code && REFUSED_CODE[body.code]) {
        // Only an answer to a real challenge (the password was right) is a failed sign-in worth keeping.
        await recordAudit(db, {
          action: 'sign_in.failed',
          actor: null,
          subject: challenged,
          origin,
          data: { reason: `right password, ${REFUSED_CODE[body.code]} ${method}` },
        });
      }
      return sendAuthResponse(request, reply, response);
    });
  }
}
