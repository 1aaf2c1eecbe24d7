import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify';
import { AppError } from '../../shared/errors';
import {
  CREDENTIAL_ACCESS,
  decideAccess,
  decideLoanAccess,
  type AccessDecision,
  ROUTE_ACCESS,
  type AccessTarget,
  type CredentialAccess,
  type LoanActionTable,
  type LoanRole,
  type LoanRoleName,
  type Principal,
  type RouteAccess,
  type SignedInPrincipal,
} from '../../shared/domain/access';
import type { Auth } from '../auth/auth';
import type { Db } from '../db/client';
import { grantsOf, principalOfSession, slideSession } from '../accounts/accounts.queries';
import { sessionCookieReader, type SessionCookieReader } from '../auth/session-cookie';
import { forwardSetCookies, toFetchHeaders } from '../platform/http/fetch-bridge';
import { apiNotFoundProblem, PROBLEM_CONTENT_TYPE } from '../platform/http/problem';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call this route. Required on every /api route (checked at start). */
    access?: RouteAccess;
    /** What a `loan` route does to its `:loanId`: an action of a feature's loan-action table (required with access `loan`). */
    loanAction?: string;
  }
  interface FastifyRequest {
    principal: Principal;
    /** What the route's URL parameters name, as the access layer resolved it (e.g. the caller's role on `:loanId`). */
    accessTarget: AccessTarget;
    /** When the caller's session ends (signed-in callers only). */
    sessionExpiresAt: Date | null;
  }
  interface FastifyInstance {
    /** Every route with its declared access, for the role × endpoint matrix test. */
    routeAccessTable: RouteAccessEntry[];
  }
}

/** A route as the access layer registered it: its access, and for a loan route its action and the roles that action allows. */
export interface RouteAccessEntry {
  method: string;
  url: string;
  access: RouteAccess;
  loanAction?: string;
  loanRoles?: readonly LoanRoleName[];
}

const ANONYMOUS: Principal = { kind: 'anonymous' };

/**
 * The caller of a route whose access requires a signed-in user. The access
 * layer has already refused everyone else, so anything but a user is a bug.
 */
export function signedInUser(request: FastifyRequest): SignedInPrincipal {
  const { principal } = request;
  if (principal.kind !== 'user') throw new Error(`unreachable: ${request.method} ${request.routeOptions.url} reached without a signed-in user`);
  return principal;
}

/** The caller's role on the route's `:loanId`, as the access layer resolved it before letting them in. */
export function loanRoleOfRequest(request: FastifyRequest): Exclude<LoanRole, { kind: 'none' }> {
  const role = request.accessTarget?.loanRole;
  if (!role || role.kind === 'none') throw new Error(`unreachable: ${request.method} ${request.routeOptions.url} reached without a role on the loan`);
  return role;
}

/**
 * Resolves the caller from the session cookie: the one place that says who
 * someone is. Team membership is read on every request, so a removed member
 * loses access with their very next call. When the session's expiry slides
 * forward, its refreshed cookie is in `authHeaders`, for
 * the access check to pass on to the reply (or not: see `check`).
 *
 * The common case takes one statement: a validly signed cookie of a session
 * that has not ended is read with its person and their grants at once
 * (`principalOfSession`). When that session is due to slide (once a day), one
 * more statement slides it unless another request of the same session is
 * doing or has done so (`slideSession`: it never waits), and the cookie is
 * renewed (decision 024). Anything else — no cookie, a bad one, an ended
 * session — goes to better-auth's getSession as it always did
 * (auth/session-cookie.ts), then to the grants.
 */
export async function resolvePrincipal(
  auth: Auth,
  db: Db,
  request: FastifyRequest,
  reader?: SessionCookieReader,
): Promise<{ principal: Principal; authHeaders: Headers }> {
  const cookie = request.headers.cookie;
  const token = reader?.token(cookie);
  if (reader && token) {
    const found = await principalOfSession(db, token);
    const now = Date.now();
    const state = found && reader.state(found.expiresAt, cookie, now);
    if (found && state !== 'ended') {
      const authHeaders = new Headers();
      let { expiresAt } = found;
      if (state === 'due') {
        // Slid once, by whichever of the session's requests at once gets there first; the others neither write nor wait.
        // Each renews the cookie for the week, as better-auth would have (its getSession wrote the row for every one).
        expiresAt = (await slideSession(db, token, { ...reader.slide(now), now: new Date(now) })) ?? expiresAt;
        authHeaders.append('set-cookie', reader.renewedCookie(token));
      }
      request.sessionExpiresAt = expiresAt;
      const { user, grants } = found;
      return {
        principal: { kind: 'user', userId: user.id, email: user.email, name: user.name, mfaEnrolled: user.twoFactorEnabled, ...grants },
        authHeaders,
      };
    }
  }
  const { headers: authHeaders, response: session } = await auth.api.getSession({ headers: toFetchHeaders(request), returnHeaders: true });
  if (!session) return { principal: ANONYMOUS, authHeaders };
  request.sessionExpiresAt = new Date(session.session.expiresAt);
  return {
    principal: {
      kind: 'user',
      userId: session.user.id,
      email: session.user.email,
      name: session.user.name,
      mfaEnrolled: session.user.twoFactorEnabled === true,
      ...(await grantsOf(db, session.user.id)),
    },
    authHeaders,
  };
}

/**
 * What an `/api` URL no route serves answers, and a hidden route too: the
 * same status, body and headers, set in the same order (the not-found
 * handler in app.ts and the access check both send it from here).
 */
export function sendUnknownApiRoute(request: FastifyRequest, reply: FastifyReply) {
  return reply.status(404).header('cache-control', 'no-store').type(PROBLEM_CONTENT_TYPE).send(apiNotFoundProblem(request.url));
}

/**
 * What one URL parameter says about the route's target, for the access table.
 * `resolved` is what the parameters before it in the URL said (an `:itemId`
 * resolver sees the caller's role on the `:loanId` before it).
 */
export type AccessTargetResolver = (value: string, request: FastifyRequest, resolved: AccessTarget) => AccessTarget | Promise<AccessTarget>;

/**
 * What a credential other than the session names, for a route whose access it
 * grants (`upload-link`: the link the request's bearer token names): nothing
 * for a credential that names nothing (the route is then hidden), or throws
 * to refuse one with its own answer (a used link: 410).
 */
export type CredentialResolver = (request: FastifyRequest) => AccessTarget | Promise<AccessTarget>;

/**
 * What the features bring to the access layer: resolvers for the URL
 * parameters that name what a route acts on (teams register `:teamId`, loans
 * `:loanId` with the caller's role on it), and the loan actions their routes
 * declare with the roles each allows. `buildApp` registers every feature's
 * before any route, so the access layer itself never changes when a feature
 * is added.
 */
export class AccessRegistry {
  private readonly resolvers = new Map<string, AccessTargetResolver>();
  private readonly loanActions = new Map<string, readonly LoanRoleName[]>();
  private readonly credentials = new Map<CredentialAccess, CredentialResolver>();

  register(param: string, resolver: AccessTargetResolver) {
    if (this.resolvers.has(param)) throw new Error(`An access target for :${param} is registered twice`);
    this.resolvers.set(param, resolver);
  }

  registerCredential(access: CredentialAccess, resolver: CredentialResolver) {
    if (this.credentials.has(access)) throw new Error(`The credential of ${access} routes is resolved twice`);
    this.credentials.set(access, resolver);
  }

  /** How the credential of a route with `access` is resolved; undefined for session-based access. */
  credentialFor(access: RouteAccess): CredentialResolver | undefined {
    return (CREDENTIAL_ACCESS as readonly RouteAccess[]).includes(access) ? this.credentials.get(access as CredentialAccess) : undefined;
  }

  registerLoanActions(table: LoanActionTable) {
    for (const [action, roles] of Object.entries(table)) {
      if (this.loanActions.has(action)) throw new Error(`The loan action ${action} is declared twice`);
      this.loanActions.set(action, roles);
    }
  }

  /** The roles a loan action allows; undefined for an action no feature declares. */
  loanRolesFor(action: string): readonly LoanRoleName[] | undefined {
    return this.loanActions.get(action);
  }

  get loanActionNames(): string[] {
    return [...this.loanActions.keys()];
  }

  /**
   * A loan action on a loan the request names outside its path (the event
   * stream's `?loans=`, src/server/realtime/): decided with the same `:loanId`
   * resolver and the same action table as a loan route, for `principal`, now.
   * The stream asks again whenever the person's access may have changed.
   * (The `:loanId` resolver reads only the caller, `request.principal`.)
   */
  async decideLoanAction(principal: Principal, loanId: string, action: string): Promise<{ decision: AccessDecision; role: LoanRole }> {
    if (principal.kind !== 'user') return { decision: 'unauthenticated', role: { kind: 'none' } };
    const resolver = this.resolvers.get('loanId');
    const target = resolver ? await resolver(loanId, { principal } as FastifyRequest, {}) : {};
    const role = target.loanRole ?? { kind: 'none' };
    if (target.hidden) return { decision: 'hidden', role };
    return { decision: decideLoanAccess(this.loanActions.get(action), role, principal.mfaEnrolled), role };
  }

  /** What the route's URL parameters name, after what `start` (a credential's target) says. */
  async resolve(request: FastifyRequest, start: AccessTarget = {}): Promise<AccessTarget> {
    const params = (request.params ?? {}) as Record<string, string | undefined>;
    let target: AccessTarget = start;
    for (const [param, value] of Object.entries(params)) {
      const resolver = value === undefined ? undefined : this.resolvers.get(param);
      if (resolver && value !== undefined) target = { ...target, ...(await resolver(value, request, target)) };
    }
    return target;
  }
}

/**
 * The access layer. Every /api route must declare `config.access`; start-up
 * fails for one that does not, so no route can slip past. Each request to a
 * non-public route resolves its principal once and is allowed, asked to sign
 * in or to enrol an authenticator (401), or answered exactly like an unknown
 * route (404).
 */
export function registerAccessLayer(app: FastifyInstance, { auth, db, registry = new AccessRegistry() }: { auth: Auth; db: Db; registry?: AccessRegistry }) {
  app.decorate('routeAccessTable', []);
  // A public route's caller is anonymous without asking: only the routes that check set a principal.
  const principals = new WeakMap<FastifyRequest, Principal>();
  app.decorateRequest('principal', {
    getter(this: FastifyRequest) {
      return principals.get(this) ?? ANONYMOUS;
    },
    setter(this: FastifyRequest, principal: Principal) {
      principals.set(this, principal);
    },
  });
  app.decorateRequest('sessionExpiresAt', null);
  app.decorateRequest('accessTarget', null as never);

  let reader: Promise<SessionCookieReader> | undefined;
  const check = async (
    request: FastifyRequest,
    reply: FastifyReply,
    access: Exclude<RouteAccess, 'public'>,
    loanRoles: readonly LoanRoleName[] | undefined,
  ) => {
    const { principal, authHeaders } = await resolvePrincipal(auth, db, request, await (reader ??= sessionCookieReader(auth)));
    request.principal = principal;
    request.accessTarget = await registry.resolve(request);
    const decision = decideAccess(access, request.principal, request.accessTarget, loanRoles);
    // Byte for byte an unknown route's answer, which never carries a cookie: a refreshed session
    // cookie here would tell the route exists. The session itself was extended all the same.
    if (decision === 'hidden') return sendUnknownApiRoute(request, reply);
    forwardSetCookies(reply, { headers: authHeaders });
    if (decision === 'unauthenticated') throw new AppError('unauthenticated', 'Sign in to continue');
    if (decision === 'mfa-required') throw new AppError('mfa_required', 'Set up two-step verification to continue');
  };

  // A route for a credential other than the session: its caller stays anonymous whatever cookie it sends,
  // and is let in by the credential alone (the upload link its bearer token names).
  const checkCredential = async (request: FastifyRequest, reply: FastifyReply, access: RouteAccess, resolver: CredentialResolver) => {
    request.accessTarget = await registry.resolve(request, await resolver(request));
    if (decideAccess(access, ANONYMOUS, request.accessTarget) !== 'allow') return sendUnknownApiRoute(request, reply);
  };

  // The check is attached to each route as it is declared (its first preHandler), so it runs on the
  // route the router matched, whatever the spelling of the URL; a public route carries no check at all.
  app.addHook('onRoute', (route) => {
    const access = route.config?.access;
    const isApi = route.url.startsWith('/api');
    if (isApi && (!access || !ROUTE_ACCESS.includes(access))) {
      throw new Error(`Route ${String(route.method)} ${route.url} must declare config.access (${ROUTE_ACCESS.join(', ')})`);
    }
    const loanAction = route.config?.loanAction;
    const loanRoles = loanAction === undefined ? undefined : registry.loanRolesFor(loanAction);
    if (access === 'loan' && (!loanRoles || !route.url.includes('/:loanId'))) {
      throw new Error(
        `Loan route ${String(route.method)} ${route.url} must name :loanId and declare config.loanAction, one a feature declares (${registry.loanActionNames.join(', ')})`,
      );
    }
    const credential = access ? registry.credentialFor(access) : undefined;
    if (access && (CREDENTIAL_ACCESS as readonly RouteAccess[]).includes(access) && !credential) {
      throw new Error(`Route ${String(route.method)} ${route.url} declares access ${access}, whose credential no feature resolves`);
    }
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      app.routeAccessTable.push({ method, url: route.url, access: access ?? 'public', ...(loanAction ? { loanAction, loanRoles } : {}) });
    }
    if (access && access !== 'public') {
      const accessCheck: preHandlerHookHandler = credential
        ? (request, reply, done) => void checkCredential(request, reply, access, credential).then(() => done(), done)
        : (request, reply, done) => void check(request, reply, access, loanRoles).then(() => done(), done);
      route.preHandler = [accessCheck, ...[route.preHandler ?? []].flat()];
    }
  });
}
