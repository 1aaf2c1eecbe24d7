import type { FastifyInstance } from 'fastify';
import { AppError } from '../../shared/errors';

/** `/healthz`: the process is up. `/readyz`: and its database answers. */
export async function healthRoutes(app: FastifyInstance, { ping }: { ping: () => Promise<void> }) {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (request) => {
    try {
      await ping();
    } catch (error) {
      request.log.error({ err: error }, 'database did not answer');
      throw new AppError('unavailable', 'The database is not reachable');
    }
    return { status: 'ready' };
  });
}
