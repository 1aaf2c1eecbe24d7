import { createHash, randomBytes } from 'node:crypto';

/** 256 bits of randomness, URL-safe: the secret half of an invitation link. */
export const newInvitationToken = () => randomBytes(32).toString('base64url');

/** What the database keeps instead of the token. */
export const hashInvitationToken = (token: string) => createHash('sha256').update(token).digest('hex');

export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
