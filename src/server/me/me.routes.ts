import type { FastifyInstance } from 'fastify';
import type { Me } from '../../shared/schemas/me';
import { signedInUser } from '../access/access';

export async function meRoutes(app: FastifyInstance) {
  app.get('/api/me', { config: { access: 'signed-in' } }, async (request) => {
    const principal = signedInUser(request);
    const me: Me = { user: { id: principal.userId, name: principal.name, email: principal.email }, platformAdmin: principal.platformAdmin };
    return me;
  });
}
