import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { mustEnrolMfa } from '../../shared/domain/access';
import { UpdateProfileSchema, type Me } from '../../shared/schemas/me';
import { signedInUser } from '../access/access';
import type { Db } from '../db/client';
import { user } from '../db/schema';
import { parseInput } from '../platform/http/problem';
import { findTeam } from '../teams/teams.queries';
import { teamView } from '../teams/teams.service';

/** The signed-in person: who they are, what they may reach, and when their session ends. */
export async function meRoutes(app: FastifyInstance, { db }: { db: Db }) {
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
    await db.update(user).set({ name }).where(eq(user.id, principal.userId));
    request.principal = { ...principal, name };
    return me(request);
  });
}
