import { LoanIdParamsSchema as LoanParams } from '../../shared/schemas/loans';
import { InviteParticipantSchema, LoanInvitationParamsSchema, LoanParticipantParamsSchema } from '../../shared/schemas/participants';
import { signedInUser } from '../access/access';
import type { Feature } from '../app-context';
import { auditOrigin } from '../audit/audit';
import { parseInput } from '../platform/http/problem';
import * as participants from './participants.service';

/**
 * Borrowers on their loan: the team invites, lists, withdraws and removes
 * them (`/api/loans/:loanId/...`, behind the loan resolver the loans feature
 * registers); a participant lists their own loans (`/api/my-loans`).
 */
export const participantsFeature: Feature = {
  name: 'participants',
  routes: async (app, deps) => {
    app.get('/api/my-loans', { config: { access: 'signed-in' } }, async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return participants.myLoans(deps, signedInUser(request));
    });

    app.get('/api/loans/:loanId/participants', { config: { access: 'loan', loanAction: 'view-internal' } }, async (request) => {
      const { loanId } = parseInput(LoanParams, request.params);
      return participants.listLoanParticipants(deps, loanId);
    });

    app.post(
      '/api/loans/:loanId/invitations',
      {
        bodyLimit: 4096,
        config: {
          access: 'loan',
          loanAction: 'invite-participant',
          // Per loan, whoever sends them, counted after the access layer (as the team's invitations are):
          // invitations are e-mails to strangers' inboxes. Keyed on the parsed, canonical id, so another
          // spelling of the same loan (upper-case letters) spends the same budget.
          rateLimit: {
            max: 20,
            timeWindow: 60 * 60_000,
            hook: 'preHandler',
            keyGenerator: (request) => `loan-invitations:${LoanParams.safeParse(request.params).data?.loanId ?? ''}`,
          },
        },
      },
      async (request, reply) => {
        const { loanId } = parseInput(LoanParams, request.params);
        const input = parseInput(InviteParticipantSchema, request.body);
        return reply.status(201).send(await participants.inviteParticipant(deps, signedInUser(request), loanId, input, auditOrigin(request)));
      },
    );

    app.delete('/api/loans/:loanId/invitations/:invitationId', { config: { access: 'loan', loanAction: 'invite-participant' } }, async (request, reply) => {
      const { loanId, invitationId } = parseInput(LoanInvitationParamsSchema, request.params);
      await participants.withdrawInvitation(deps, signedInUser(request), loanId, invitationId, auditOrigin(request));
      return reply.status(204).send();
    });

    app.delete('/api/loans/:loanId/participants/:userId', { config: { access: 'loan', loanAction: 'invite-participant' } }, async (request, reply) => {
      const { loanId, userId } = parseInput(LoanParticipantParamsSchema, request.params);
      await participants.removeParticipant(deps, signedInUser(request), loanId, userId, auditOrigin(request));
      return reply.status(204).send();
    });
  },
};
