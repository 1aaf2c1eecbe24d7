import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Auth } from './auth';

/**
 * Reads better-auth's session cookie without going through better-auth, for
 * the access layer's common case: a signed-in caller whose session is neither
 * ended nor due to slide. Then the access layer can read the session, its
 * person and their grants in one statement (accounts.queries.ts
 * `principalOfSession`) instead of better-auth's two lookups and its own one
 * after them, one after the other, on every request (bench/results/pipeline.md).
 *
 * It reads exactly what better-auth's getSession reads: the cookie's value
 * is `<token>.<base64 HMAC-SHA256 of the token under the auth secret>`,
 * parsed and checked as better-call's getSignedCookie does (first cookie of
 * a name wins; a signature of 44 characters ending in "="). Whenever
 * better-auth would do more than read — no cookie or a bad signature (it
 * answers "no session"), its cookie cache present (it clears it), a session
 * that has ended (it deletes it) — the caller asks better-auth itself, so
 * those behaviours stay entirely better-auth's. A session due to slide
 * forward is slid by the access layer itself, once however many of its
 * requests arrive at once (decision 024): `slide` and `renewedCookie` say
 * what better-auth's getSession would have written to the row and the cookie.
 */
export interface SessionCookieReader {
  /** The session token of a validly signed session cookie; null when only better-auth may answer for this cookie header. */
  token(cookieHeader: string | undefined): string | null;
  /** Whether better-auth must answer for a session that ends at `expiresAt`: it has ended, or is due to slide forward. */
  needsBetterAuth(expiresAt: Date, cookieHeader: string | undefined, now?: number): boolean;
  /**
   * What a session that ends at `expiresAt` is at `now`: ended, due to slide
   * forward (used more than `updateAge` after it began or last slid, and its
   * person did not ask not to be remembered), or current.
   */
  state(expiresAt: Date, cookieHeader: string | undefined, now?: number): 'ended' | 'due' | 'current';
  /**
   * The slide of a session due to slide at `now`, as better-auth's getSession
   * makes it: its new end (`now` + expiresIn), and the end at or before which
   * the row is still due (a row that ends later has slid since it was read).
   */
  slide(now?: number): { expiresAt: Date; dueBy: Date };
  /** The Set-Cookie line that renews the session cookie of `token` for expiresIn, byte for byte as better-auth's setSessionCookie writes it. */
  renewedCookie(token: string): string;
}

/** better-call's parseCookies: `name=value` pairs split on ";", the first of a name kept, quotes dropped, percent-decoded when it can be. */
export function parseCookieHeader(header: string): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq === -1) continue;
    const name = pair.slice(0, eq).trim();
    if (cookies.has(name)) continue;
    let value = pair.slice(eq + 1).trim();
    if (value.codePointAt(0) === 34) value = value.slice(1, -1);
    try {
      cookies.set(name, value.includes('%') ? decodeURIComponent(value) : value);
    } catch {
      cookies.set(name, value);
    }
  }
  return cookies;
}

/** The signed value of a cookie as better-call's getSignedCookie accepts it, or null. */
export function verifiedCookieValue(raw: string | undefined, secret: string): string | null {
  if (!raw) return null;
  const dot = raw.lastIndexOf('.');
  if (dot < 1) return null;
  const value = raw.slice(0, dot);
  const signature = raw.slice(dot + 1);
  if (signature.length !== 44 || !signature.endsWith('=')) return null;
  const expected = createHmac('sha256', secret).update(value).digest();
  const given = Buffer.from(signature, 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected) ? value : null;
}

export async function sessionCookieReader(auth: Auth): Promise<SessionCookieReader> {
  const context = await auth.$context;
  const { secret } = context;
  const { sessionToken, sessionData, dontRememberToken } = context.authCookies;
  const { expiresIn, updateAge } = context.sessionConfig;
  // better-auth's getChunkedCookie: the cookie, else its chunks `<name>.0`, `<name>.1`… joined; an empty value is no cache.
  const hasCookieCache = (cookies: Map<string, string>) => {
    if (cookies.get(sessionData.name)) return true;
    const prefix = `${sessionData.name}.`;
    const chunks = [...cookies].filter(([name]) => name.startsWith(prefix) && String(Number(name.slice(prefix.length))) === name.slice(prefix.length));
    return chunks.some(([, value]) => value !== '');
  };
  const state: SessionCookieReader['state'] = (expiresAt, cookieHeader, now = Date.now()) => {
    if (expiresAt.getTime() <= now) return 'ended';
    // better-auth never slides a session whose person chose not to be remembered.
    if (cookieHeader && verifiedCookieValue(parseCookieHeader(cookieHeader).get(dontRememberToken.name), secret) !== null) return 'current';
    return expiresAt.getTime() - expiresIn * 1000 + updateAge * 1000 <= now ? 'due' : 'current';
  };
  return {
    token(cookieHeader) {
      if (!cookieHeader) return null;
      const cookies = parseCookieHeader(cookieHeader);
      if (hasCookieCache(cookies)) return null;
      return verifiedCookieValue(cookies.get(sessionToken.name), secret);
    },
    needsBetterAuth(expiresAt, cookieHeader, now = Date.now()) {
      return state(expiresAt, cookieHeader, now) !== 'current';
    },
    state,
    slide(now = Date.now()) {
      return { expiresAt: new Date(now + expiresIn * 1000), dueBy: new Date(now + expiresIn * 1000 - updateAge * 1000) };
    },
    renewedCookie(token) {
      return serializeCookie(sessionToken.name, signedCookieValue(token, secret), { ...sessionToken.attributes, maxAge: expiresIn });
    },
  };
}

/** better-call's signCookieValue: `<value>.<base64 HMAC-SHA256 of the value>`, percent-encoded. */
const signedCookieValue = (value: string, secret: string) => encodeURIComponent(`${value}.${createHmac('sha256', secret).update(value).digest('base64')}`);

interface CookieAttributes {
  maxAge?: number;
  domain?: string;
  path?: string;
  expires?: Date;
  httpOnly?: boolean;
  secure?: boolean;
  sameSite?: string;
  partitioned?: boolean;
}

/** better-call's resolveCookie and serializeCookieValue: a `__Secure-`/`__Host-` name or SameSite=None is always Secure. */
function serializeCookie(name: string, value: string, attributes: CookieAttributes): string {
  const lower = name.toLowerCase();
  const options = { ...attributes };
  if (lower.startsWith('__host-')) Object.assign(options, { secure: true, path: '/', domain: undefined });
  else if (lower.startsWith('__secure-')) options.secure = true;
  if (options.partitioned === true || options.sameSite?.toLowerCase() === 'none') options.secure = true;
  let cookie = `${name}=${value}`;
  if (typeof options.maxAge === 'number' && options.maxAge >= 0) cookie += `; Max-Age=${Math.floor(options.maxAge)}`;
  if (options.domain) cookie += `; Domain=${options.domain}`;
  if (options.path) cookie += `; Path=${options.path}`;
  if (options.expires) cookie += `; Expires=${options.expires.toUTCString()}`;
  if (options.httpOnly) cookie += '; HttpOnly';
  if (options.secure) cookie += '; Secure';
  if (options.sameSite) cookie += `; SameSite=${options.sameSite.charAt(0).toUpperCase() + options.sameSite.slice(1)}`;
  if (options.partitioned) cookie += '; Partitioned';
  return cookie;
}
