import type { Feature } from '../app-context';
import { mustEnrolMfa } from '../../shared/domain/access';
import { UpdateProfileSchema, type Me } from '../../shared/schemas/me';
import { signedInUser } from '../access/access';
import { parseInput } from '../platform/http/problem';
import { findTeam, updateUserName } from '../accounts/accounts.queries';
import { teamView } from '../teams/team-view';

/** The signed-in person: who they are, what they may reach, and when their session ends. */
export const meFeature: Feature = async (app, { db }) => {
  const me = async (request: Parameters<typeof signedInUser>[0]): Promise<Me> => {
    const principal = signedInUser(request);
    const team = principal.team ? await findTeam(db, principal.team.id) : undefined;
    return {
      user: { id: principal.userId, name: principal.name, email: principal.email },
      platformAdmin: principal.platformAdmin,
      broker: principal.broker,
      mfaEnrolled: principal.mfaEnrolled,
      mustEnrolMfa: mustEnrolMfa(principal),
      team: team && principal.team ? teamView(team, principal.team.role) : null,
      sessionExpiresAt: (request.sessionExpiresAt ?? new Date()).toISOString(),
    };
  };

  app.get('/api/me', { config: { access: 'signed-in' } }, async (request, reply) => {
    void reply.header('cache-control', 'no-store');
    return me(request);
  });

  app.patch('/api/me', { bodyLimit: 4096, config: { access: 'signed-in' } }, async (request) => {
    const { name } = parseInput(UpdateProfileSchema, request.body);
    const principal = signedInUser(request);
    await updateUserName(db, principal.userId, name);
    request.principal = { ...principal, name };
    return me(request);
  });
};
