import type { FastifyInstance } from 'fastify';
import { sendFetchResponse, toFetchHeaders } from '../platform/http/fetch-bridge';
import { AUTH_BASE_PATH, type Auth } from './auth';

/**
 * better-auth's own endpoints (sign-in, sign-out, session, two-factor…) under
 * /api/auth. They are public to the access layer: better-auth authenticates
 * each of them itself. Public sign-up is disabled in its configuration.
 */
export async function authRoutes(app: FastifyInstance, { auth }: { auth: Auth }) {
  app.route({
    method: ['GET', 'POST'],
    url: `${AUTH_BASE_PATH}/*`,
    config: { access: 'public', rateLimit: { max: 30, timeWindow: 60_000 } },
    async handler(request, reply) {
      const headers = toFetchHeaders(request);
      const url = new URL(request.url, `${request.protocol}://${request.host}`);
      const body = request.method === 'GET' || request.body === undefined ? undefined : JSON.stringify(request.body);
      const response = await auth.handler(new Request(url, { method: request.method, headers, body }));
      return sendFetchResponse(reply, response);
    },
  });
}
