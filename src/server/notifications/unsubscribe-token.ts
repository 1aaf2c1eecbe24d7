import { createHmac, timingSafeEqual } from 'node:crypto';
import { isNotificationKind, type NotificationKind } from '../../shared/domain/notifications';

/*
 * One-click unsubscribe tokens (RFC 8058): `<person>.<kind>.<signature>`, the
 * signature an HMAC-SHA256 of the person and the kind under a key derived
 * from AUTH_SECRET for this use alone. Nothing is stored and nothing expires:
 * a token only ever turns one person's e-mail for one kind off, which they may
 * do at any time anyway. Rotating AUTH_SECRET retires every token sent so far
 * (decision 021).
 */

const PURPOSE = 'coverly.unsubscribe.v1';

const keyOf = (secret: string) => createHmac('sha256', secret).update(PURPOSE).digest();
const signatureOf = (secret: string, userId: string, kind: NotificationKind) => createHmac('sha256', keyOf(secret)).update(`${userId}\n${kind}`).digest();

export function unsubscribeToken(secret: string, userId: string, kind: NotificationKind): string {
  return `${Buffer.from(userId, 'utf8').toString('base64url')}.${kind}.${signatureOf(secret, userId, kind).toString('base64url')}`;
}

/** The person and kind a token was signed for; null for anything else (malformed, altered, or signed with another secret). */
export function verifyUnsubscribeToken(secret: string, token: string): { userId: string; kind: NotificationKind } | null {
  if (token.length > 512) return null;
  const match = /^([A-Za-z0-9_-]{1,300})\.([a-z_]{1,40})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const [, encodedUser, kind, signature] = match as unknown as [string, string, string, string];
  if (!isNotificationKind(kind)) return null;
  const userId = Buffer.from(encodedUser, 'base64url').toString('utf8');
  // The encoding must round-trip, so one person has one spelling of their token.
  if (!userId || Buffer.from(userId, 'utf8').toString('base64url') !== encodedUser) return null;
  const expected = signatureOf(secret, userId, kind);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return { userId, kind };
}

/** The address a mail's `List-Unsubscribe` names, and the confirmation page its text links to. */
export const unsubscribeUrl = (publicUrl: string, token: string) => `${publicUrl}/unsubscribe?token=${encodeURIComponent(token)}`;
