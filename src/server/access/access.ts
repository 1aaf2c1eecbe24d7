import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../shared/errors';
import { decideAccess, ROUTE_ACCESS, type Principal, type RouteAccess } from '../../shared/domain/access';
import type { Auth } from '../auth/auth';
import type { Db } from '../db/client';
import { platformAdmin } from '../db/schema';
import { toFetchHeaders } from '../platform/http/fetch-bridge';
import { apiNotFoundProblem, PROBLEM_CONTENT_TYPE } from '../platform/http/problem';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call this route. Required on every /api route (checked at start). */
    access?: RouteAccess;
  }
  interface FastifyRequest {
    principal: Principal;
  }
  interface FastifyInstance {
    /** Every route with its declared access, for the role × endpoint matrix test. */
    routeAccessTable: { method: string; url: string; access: RouteAccess }[];
  }
}

const ANONYMOUS: Principal = { kind: 'anonymous' };

type SignedIn = Extract<Principal, { kind: 'user' }>;

/**
 * The caller of a route whose access requires a signed-in user. The access
 * layer has already refused everyone else, so anything but a user is a bug.
 */
export function signedInUser(request: FastifyRequest): SignedIn {
  const { principal } = request;
  if (principal.kind !== 'user') throw new Error(`unreachable: ${request.method} ${request.routeOptions.url} reached without a signed-in user`);
  return principal;
}

/** Resolves the caller from the session cookie: the one place that says who someone is. */
export async function resolvePrincipal(auth: Auth, db: Db, request: FastifyRequest): Promise<Principal> {
  const session = await auth.api.getSession({ headers: toFetchHeaders(request) });
  if (!session) return ANONYMOUS;
  const [admin] = await db.select({ userId: platformAdmin.userId }).from(platformAdmin).where(eq(platformAdmin.userId, session.user.id));
  return { kind: 'user', userId: session.user.id, email: session.user.email, name: session.user.name, platformAdmin: Boolean(admin) };
}

/**
 * The access layer. Every /api route must declare `config.access`; start-up
 * fails for one that does not, so no route can slip past. Each request to a
 * non-public route resolves its principal once and is allowed, asked to sign
 * in (401), or answered exactly like an unknown route (404).
 */
export function registerAccessLayer(app: FastifyInstance, { auth, db }: { auth: Auth; db: Db }) {
  app.decorate('routeAccessTable', []);
  app.decorateRequest('principal', null as never);

  app.addHook('onRoute', (route) => {
    const access = route.config?.access;
    const isApi = route.url.startsWith('/api');
    if (isApi && (!access || !ROUTE_ACCESS.includes(access))) {
      throw new Error(`Route ${String(route.method)} ${route.url} must declare config.access (${ROUTE_ACCESS.join(', ')})`);
    }
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      app.routeAccessTable.push({ method, url: route.url, access: access ?? 'public' });
    }
  });

  app.addHook('preHandler', async (request, reply) => {
    const access = request.routeOptions.config.access ?? 'public';
    if (access === 'public') {
      request.principal = ANONYMOUS;
      return;
    }
    request.principal = await resolvePrincipal(auth, db, request);
    const decision = decideAccess(access, request.principal);
    if (decision === 'unauthenticated') throw new AppError('unauthenticated', 'Sign in to continue');
    if (decision === 'hidden') {
      return reply.status(404).type(PROBLEM_CONTENT_TYPE).send(apiNotFoundProblem(request.url));
    }
  });
}
