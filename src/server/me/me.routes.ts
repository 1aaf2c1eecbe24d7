import type { Feature } from '../app-context';
import { mustEnrolMfa } from '../../shared/domain/access';
import { UpdateProfileSchema, type Me } from '../../shared/schemas/me';
import { signedInUser } from '../access/access';
import { parseInput } from '../platform/http/problem';
import { invalidField } from '../../shared/errors';
import { findMemberPhone, findTeam, updateMemberPhone, updateUserName } from '../accounts/accounts.queries';
import { countParticipantLoans } from '../accounts/loan-participants';
import { teamView } from '../teams/team-view';

/** The signed-in person: who they are, what they may reach, and when their session ends. */
export const meFeature: Feature = {
  name: 'me',
  routes: async (app, { db }) => {
    const me = async (request: Parameters<typeof signedInUser>[0]): Promise<Me> => {
      const principal = signedInUser(request);
      const [team, workPhone, participantLoans] = await Promise.all([
        principal.team ? findTeam(db, principal.team.id) : undefined,
        principal.team ? findMemberPhone(db, principal.team.id, principal.userId) : null,
        countParticipantLoans(db, principal.userId),
      ]);
      return {
        user: { id: principal.userId, name: principal.name, email: principal.email },
        platformAdmin: principal.platformAdmin,
        broker: principal.broker,
        mfaEnrolled: principal.mfaEnrolled,
        mustEnrolMfa: mustEnrolMfa(principal),
        team: team && principal.team ? teamView(team, principal.team.role) : null,
        workPhone,
        participantLoans,
        sessionExpiresAt: (request.sessionExpiresAt ?? new Date()).toISOString(),
      };
    };

    app.get('/api/me', { config: { access: 'signed-in' } }, async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return me(request);
    });

    app.patch('/api/me', { bodyLimit: 4096, config: { access: 'signed-in' } }, async (request) => {
      const { name, phone } = parseInput(UpdateProfileSchema, request.body);
      const principal = signedInUser(request);
      if (phone !== undefined && !principal.team) throw invalidField('phone', 'Only team members have a work phone here');
      await db.transaction(async (tx) => {
        await updateUserName(tx, principal.userId, name);
        if (phone !== undefined && principal.team) await updateMemberPhone(tx, principal.team.id, principal.userId, phone);
      });
      request.principal = { ...principal, name };
      return me(request);
    });
  },
};
