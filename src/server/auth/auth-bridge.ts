import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, invalidField } from '../../shared/errors';
import { unsafeTextPath } from '../../shared/schemas/text';
import type { Db } from '../db/client';
import { sendFetchResponse, toFetchHeaders } from '../platform/http/fetch-bridge';
import { acceptedOrigins } from '../platform/http/security';
import { apiNotFoundProblem, PROBLEM_CONTENT_TYPE } from '../platform/http/problem';
import { AUTH_BASE_PATH, type Auth } from './auth';
import { MFA_STAYS_ON, runBridged, WEAK_PASSWORD } from './auth-rules';
import type { SignInPolicy } from './throttle';

/** What every route of the auth bridge needs. */
export interface AuthRouteDeps {
  auth: Auth;
  db: Db;
  publicUrl: string;
  signInPolicy: SignInPolicy;
}

/** A better-auth action as the bridge accepts it: lower-case words joined by single slashes, nothing else. */
export const AUTH_ACTION = /^[a-z0-9-]+(?:\/[a-z0-9-]+)*$/;

/**
 * The options every bridge route shares: public to the access layer
 * (better-auth authenticates), a per-client limit, and a body whose text a
 * person could have typed (no NUL, no lone surrogate), checked before any
 * throttle or lookup uses it.
 */
export const authRouteOptions = {
  config: { access: 'public', rateLimit: { max: 60, timeWindow: 60_000 } },
  async preValidation(request: FastifyRequest) {
    const badField = unsafeTextPath(request.body);
    if (badField) throw invalidField(badField, 'This field contains a character that is not allowed');
  },
} as const;

/** The path of an auth endpoint's route, from its action ("sign-in/email"). */
export const authPath = (action: string) => `${AUTH_BASE_PATH}/${action}`;

/** better-auth's JSON answer (read without consuming it), or null. */
export async function jsonOf<T extends object>(response: Response): Promise<Partial<T> | null> {
  try {
    return (await response.clone().json()) as Partial<T> | null;
  } catch {
    return null;
  }
}

/**
 * Forwards one request to better-auth's endpoint `action`, which its route
 * has checked. The URL is rebuilt from the action and the public URL, never
 * taken from the request, and the query string goes along for GET only (a
 * reset token in a POST's query would skip the body's checks and land in
 * logs). Inside better-auth, `auth-rules.ts` refuses any HTTP request for an
 * endpoint other than the one named here.
 */
export async function forwardToAuth(
  { auth, publicUrl }: Pick<AuthRouteDeps, 'auth' | 'publicUrl'>,
  request: FastifyRequest,
  action: string,
): Promise<Response> {
  // better-auth refuses a page opened at another address than PUBLIC_URL with a bare "Invalid origin"
  // (and only outside tests); we refuse it first, saying where to open Coverly.
  const origin = pageOrigin(request);
  if (origin && !acceptedOrigins(publicUrl).includes(origin)) throw wrongAddress(origin, publicUrl);
  const url = new URL(authPath(action), publicUrl);
  if (request.method === 'GET') url.search = new URL(request.url, 'http://x').search;
  const headers = toFetchHeaders(request);
  headers.delete('content-length');
  const body = request.method === 'GET' || request.body === undefined ? undefined : JSON.stringify(request.body);
  const response = await runBridged(`/${action}`, () => auth.handler(new Request(url, { method: request.method, headers, body })));
  if (response.status >= 500) request.log.error({ status: response.status, action }, 'the auth library answered with a server error');
  if (response.status === 403 && (await jsonOf<{ code: string }>(response))?.code === 'INVALID_ORIGIN') throw wrongAddress(origin, publicUrl);
  return response;
}

/** The origin of the page a request came from: its Origin header, else its Referer's; none from a client that sends neither. */
function pageOrigin(request: FastifyRequest): string | undefined {
  const { origin, referer } = request.headers;
  if (origin && origin !== 'null') return origin;
  return referer && URL.canParse(referer) ? new URL(referer).origin : undefined;
}

/**
 * The page was opened at an address other than PUBLIC_URL (a LAN address,
 * another port): say where to open it, rather than let the form show a
 * generic failure for a cause we know.
 */
function wrongAddress(origin: string | undefined, publicUrl: string): AppError {
  const here = origin ? `This page is at ${origin}, but signing in` : 'Signing in';
  return new AppError('forbidden', `${here} works only at ${publicUrl} (the server's PUBLIC_URL). Open ${publicUrl} and sign in there.`);
}

/** Our own refusals from inside better-auth (`auth-rules.ts`), as the problem+json the forms read. */
const OUR_REFUSALS: Record<string, (message: string) => AppError> = {
  [WEAK_PASSWORD]: (message) => invalidField('newPassword', message),
  [MFA_STAYS_ON]: (message) => new AppError('forbidden', message),
};

/**
 * Sends better-auth's answer, in our shapes where they differ: its 404 is
 * our JSON 404 (identical to any unknown route), and our own refusals (a
 * password the policy refused: a 400 naming `newPassword`) are problem+json.
 */
export async function sendAuthResponse(request: FastifyRequest, reply: FastifyReply, response: Response) {
  if (response.status === 404) return reply.status(404).type(PROBLEM_CONTENT_TYPE).send(apiNotFoundProblem(request.url));
  if (response.status === 400 || response.status === 403) {
    const body = await jsonOf<{ code: string; message: string }>(response);
    const refusal = body?.code ? OUR_REFUSALS[body.code] : undefined;
    if (refusal) throw refusal(body?.message ?? 'Refused');
  }
  return sendFetchResponse(reply, response);
}

/**
 * Every other better-auth endpoint (sign-out, sessions, enrolling an
 * authenticator…), forwarded as it is. Only a canonical spelling of an action
 * is forwarded: a path with dot segments, encoded characters, double slashes
 * or capitals answers 404, so no spelling reaches an intercepted endpoint
 * past its own route.
 */
export async function forwardRoute(app: FastifyInstance, deps: AuthRouteDeps) {
  app.route({
    method: ['GET', 'POST'],
    url: `${AUTH_BASE_PATH}/*`,
    ...authRouteOptions,
    async handler(request, reply) {
      const action = (request.params as { '*': string })['*'];
      const rawPath = (request.raw.url ?? '').split('?')[0];
      if (!AUTH_ACTION.test(action) || rawPath !== authPath(action)) {
        return reply.status(404).type(PROBLEM_CONTENT_TYPE).send(apiNotFoundProblem(request.url));
      }
      return sendAuthResponse(request, reply, await forwardToAuth(deps, request, action));
    },
  });
}
