import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import Fastify, { type FastifyInstance, type onSendHookHandler } from 'fastify';
import { AppError } from '../../../shared/errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route takes posts from other sites and from mail clients, with no
     * Origin rule: only RFC 8058's one-click unsubscribe, whose signed token is
     * its whole credential and which changes nothing but what that names.
     */
    crossSitePost?: true;
  }
}

/**
 * Security headers: a CSP with no inline scripts or styles, nosniff, a strict
 * referrer policy, and HSTS only when the public URL is HTTPS. Helmet decides
 * the set; it is computed once at start and added to every answer as it is
 * (@fastify/helmet would rebuild it from the options on every request).
 */
export async function registerSecurityHeaders(app: FastifyInstance, { publicUrl }: { publicUrl: string }) {
  const headers = await helmetHeaders(helmetOptions(publicUrl.startsWith('https://')));
  // Before routing's own hooks, like helmet's: errors, 404s and static files get them too.
  app.addHook('onRequest', (_request, reply, done) => {
    void reply.headers(headers);
    done();
  });
}

export function helmetOptions(https: boolean): FastifyHelmetOptions {
  return {
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
  };
}

/** The headers helmet sets with `options`: read once from a throwaway instance's answer. */
export async function helmetHeaders(options: FastifyHelmetOptions): Promise<Record<string, string>> {
  const probe = Fastify({ logger: false });
  await probe.register(helmet, options);
  let headers: Record<string, string> = {};
  probe.get('/', (_request, reply) => {
    // Only helmet has written to the raw response by now: Fastify adds its own headers when it sends.
    headers = Object.fromEntries(Object.entries(reply.raw.getHeaders()).map(([name, value]) => [name, String(value)]));
    return '';
  });
  await probe.inject('/');
  await probe.close();
  if (!headers['content-security-policy']) throw new Error('helmet set no Content-Security-Policy');
  return headers;
}

/** The loopback host names a browser may use for the same local server. */
const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

/**
 * The origins our pages may be opened at: PUBLIC_URL's, and when it names
 * this machine (the local default, http://localhost:3000) each loopback
 * spelling with the same scheme and port, since a browser may be pointed at
 * http://127.0.0.1:3000 just as well. Any other PUBLIC_URL accepts itself only.
 */
export function acceptedOrigins(publicUrl: string): string[] {
  const url = new URL(publicUrl);
  if (!LOOPBACK_HOSTS.includes(url.hostname)) return [url.origin];
  const port = url.port ? `:${url.port}` : '';
  return [url.origin, ...LOOPBACK_HOSTS.filter((host) => host !== url.hostname).map((host) => `${url.protocol}//${host}${port}`)];
}

/**
 * State-changing requests must come from our own pages: a browser sends
 * `Origin` on every cross-site POST, so one that names another site is
 * refused. Every unsafe method is checked, whatever its path: the router
 * decodes `/%61pi/…` into `/api/…`, so no test of the raw URL could tell
 * which requests reach the API.
 */
export function registerOriginCheck(app: FastifyInstance, { publicUrl }: { publicUrl: string }) {
  const accepted = new Set(acceptedOrigins(publicUrl));
  // Callback-style hooks: no promise per request on this path every answer takes.
  app.addHook('onRequest', (request, _reply, done) => {
    if (SAFE_METHODS.has(request.method)) return done();
    // Decided on the route the router matched, never on a spelling of the URL.
    if (request.routeOptions.config?.crossSitePost === true) return done();
    if (request.headers['sec-fetch-site'] === 'cross-site') {
      return done(new AppError('forbidden', 'Cross-site requests are not accepted'));
    }
    const origin = request.headers.origin;
    if (!origin) return done();
    const sameHost = `${request.protocol}://${request.host}`;
    if (!accepted.has(origin) && origin !== sameHost) {
      return done(new AppError('forbidden', `Requests from origin ${origin} are not accepted`));
    }
    done();
  });
}

/**
 * No cache keeps an API answer unless its route says otherwise (team logos
 * are public and immutable): they carry personal data and session tokens.
 * Attached to every /api route as it is declared, so every spelling of a path
 * that reaches the route gets it, and a hidden route's 404 stays identical to
 * an unknown route's (which the not-found handler marks the same way).
 */
export function registerNoStore(app: FastifyInstance) {
  const noStore: onSendHookHandler = (_request, reply, payload, done) => {
    if (!reply.hasHeader('cache-control')) void reply.header('cache-control', 'no-store');
    done(null, payload);
  };
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api')) route.onSend = [...[route.onSend ?? []].flat(), noStore];
  });
}
