import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../../shared/errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Security headers: a CSP with no inline scripts or styles, nosniff, a strict
 * referrer policy, and HSTS only when the public URL is HTTPS.
 */
export async function registerSecurityHeaders(app: FastifyInstance, { publicUrl }: { publicUrl: string }) {
  const https = publicUrl.startsWith('https://');
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        'style-src': ["'self'"],
        'img-src': ["'self'", 'data:', 'blob:'],
        'font-src': ["'self'"],
        'connect-src': ["'self'"],
        'object-src': ["'none'"],
        'base-uri': ["'self'"],
        'form-action': ["'self'"],
        'frame-ancestors': ["'none'"],
        ...(https ? { 'upgrade-insecure-requests': [] } : {}),
      },
    },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: https ? { maxAge: 63_072_000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
  });
}

/**
 * State-changing requests must come from our own pages: a browser sends
 * `Origin` on every cross-site POST, so one that names another site is
 * refused. Every unsafe method is checked, whatever its path: the router
 * decodes `/%61pi/…` into `/api/…`, so no test of the raw URL could tell
 * which requests reach the API.
 */
export function registerOriginCheck(app: FastifyInstance, { publicUrl }: { publicUrl: string }) {
  const configured = new URL(publicUrl).origin;
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    if (request.headers['sec-fetch-site'] === 'cross-site') {
      throw new AppError('forbidden', 'Cross-site requests are not accepted');
    }
    const origin = request.headers.origin;
    if (!origin) return;
    const sameHost = `${request.protocol}://${request.host}`;
    if (origin !== configured && origin !== sameHost) {
      throw new AppError('forbidden', `Requests from origin ${origin} are not accepted`);
    }
  });
}

/**
 * No cache keeps an API answer unless its route says otherwise (team logos
 * are public and immutable): they carry personal data and session tokens.
 * Decided by the matched route, so every spelling of a path gets it, and a
 * hidden route's 404 stays identical to an unknown route's (which the
 * not-found handler marks the same way).
 */
export function registerNoStore(app: FastifyInstance) {
  app.addHook('onSend', async (request, reply) => {
    if (request.routeOptions.url?.startsWith('/api') && !reply.hasHeader('cache-control')) void reply.header('cache-control', 'no-store');
  });
}
