import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Auth } from './auth';
import { TWO_FACTOR_COOKIE } from './auth-rules';

/** A cookie's value, percent-decoded; null when absent or not valid percent-encoding (a client can send anything). */
const cookieValue = (header: string | undefined, name: string) => {
  for (const part of (header ?? '').split(';')) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === name) {
      try {
        return decodeURIComponent(part.slice(index + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
};

/**
 * The account whose two-step challenge this request answers: a sign-in whose
 * password was right and which now waits for a code. better-auth keeps that
 * in a signed cookie naming a verification row; reading it lets the audit log
 * say whose code was wrong, so the team's owners see someone got past a
 * member's password. Null when there is no valid, live challenge.
 */
export async function challengedAccount(auth: Auth, request: FastifyRequest): Promise<{ id: string; email: string } | null> {
  const context = await auth.$context;
  const signed = cookieValue(request.headers.cookie, context.createAuthCookie(TWO_FACTOR_COOKIE).name);
  const dot = signed?.lastIndexOf('.') ?? -1;
  if (!signed || dot < 1) return null;
  const identifier = signed.slice(0, dot);
  const signature = Buffer.from(signed.slice(dot + 1), 'base64');
  const expected = createHmac('sha256', context.secret).update(identifier).digest();
  if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) return null;
  const challenge = await context.internalAdapter.findVerificationValue(identifier);
  if (!challenge || challenge.expiresAt < new Date()) return null;
  const user = await context.internalAdapter.findUserById(challenge.value);
  return user ? { id: user.id, email: user.email } : null;
}
