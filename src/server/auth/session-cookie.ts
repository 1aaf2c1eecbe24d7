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
 * that has ended (it deletes it) or is due to slide forward (it renews the
 * row and the cookie) — the caller asks better-auth itself, so those
 * behaviours stay entirely better-auth's.
 */
export interface SessionCookieReader {
  /** The session token of a validly signed session cookie; null when only better-auth may answer for this cookie header. */
  token(cookieHeader: string | undefined): string | null;
  /** Whether better-auth must answer for a session that ends at `expiresAt`: it has ended, or is due to slide forward. */
  needsBetterAuth(expiresAt: Date, cookieHeader: string | undefined, now?: number): boolean;
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
  return {
    token(cookieHeader) {
      if (!cookieHeader) return null;
      const cookies = parseCookieHeader(cookieHeader);
      if (hasCookieCache(cookies)) return null;
      return verifiedCookieValue(cookies.get(sessionToken.name), secret);
    },
    needsBetterAuth(expiresAt, cookieHeader, now = Date.now()) {
      if (expiresAt.getTime() <= now) return true;
      // better-auth never slides a session whose person chose not to be remembered.
      if (cookieHeader && verifiedCookieValue(parseCookieHeader(cookieHeader).get(dontRememberToken.name), secret) !== null) return false;
      return expiresAt.getTime() - expiresIn * 1000 + updateAge * 1000 <= now;
    },
  };
}
