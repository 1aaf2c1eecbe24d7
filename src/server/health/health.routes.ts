import type { Feature } from '../app-context';
import { AppError } from '../../shared/errors';

/** `/healthz`: the process is up. `/readyz`: and its database answers. */
export const healthFeature: Feature = {
  name: 'health',
  routes: async (app, { database }) => {
    // Not async: the answer needs no promise (a load balancer asks this many times a second).
    app.get('/healthz', () => ({ status: 'ok' }));
    app.get('/readyz', async (request) => {
      try {
        await database.ping();
      } catch (error) {
        request.log.error({ err: error }, 'database did not answer');
        throw new AppError('unavailable', 'The database is not reachable');
      }
      return { status: 'ready' };
    });
  },
};
