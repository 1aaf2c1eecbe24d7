import type { Feature } from '../app-context';
import { AcceptInvitationSchema, LookupInvitationSchema, type AcceptInvitationResult } from '../../shared/schemas/invitations';
import { forwardSetCookies } from '../platform/http/fetch-bridge';
import { parseInput } from '../platform/http/problem';
import { auditOrigin } from '../audit/audit';
import { acceptInvitation, lookupInvitation } from './invitations.service';

// Tokens travel in request bodies, never in URLs, so they stay out of logs.
const limited = { max: 20, timeWindow: 10 * 60_000 };

export const invitationsFeature: Feature = {
  name: 'invitations',
  routes: async (app, deps) => {
    app.post('/api/invitations/lookup', { bodyLimit: 4096, config: { access: 'public', rateLimit: limited } }, async (request) => {
      const { token } = parseInput(LookupInvitationSchema, request.body);
      return lookupInvitation(deps, token);
    });

    app.post('/api/invitations/accept', { bodyLimit: 4096, config: { access: 'public', rateLimit: limited } }, async (request, reply) => {
      const input = parseInput(AcceptInvitationSchema, request.body);
      const { redirectTo, twoFactorRequired, signIn } = await acceptInvitation(deps, input, auditOrigin(request));
      request.log.info({ invitation: 'accepted' }, 'invitation accepted');
      forwardSetCookies(reply, signIn);
      const result: AcceptInvitationResult = { redirectTo, twoFactorRequired };
      return reply.status(200).send(result);
    });
  },
};
