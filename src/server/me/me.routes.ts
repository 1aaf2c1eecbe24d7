import type { FastifyInstance } from 'fastify';
import type { Me } from '../../shared/schemas/me';

export async function meRoutes(app: FastifyInstance) {
  app.get('/api/me', { config: { access: 'signed-in' } }, async (request) => {
    const principal = request.principal;
    // The access layer let only signed-in callers through.
    if (principal.kind !== 'user') throw new Error('unreachable: /api/me without a user');
    const me: Me = { user: { id: principal.userId, name: principal.name, email: principal.email }, platformAdmin: principal.platformAdmin };
    return me;
  });
}
