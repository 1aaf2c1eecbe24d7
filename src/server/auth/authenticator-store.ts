import { generateRandomString, symmetricEncrypt } from 'better-auth/crypto';
import type { Auth } from './auth';
import { TOTP_DIGITS, TOTP_PERIOD_SECONDS } from './auth';

/**
 * Stores a verified TOTP authenticator for an account exactly as better-auth's
 * enable and verify-totp leave it (plugins/two-factor): the secret and ten
 * backup codes encrypted with the auth secret, verified, and the user's
 * twoFactorEnabled on. For accounts made outside the sign-in flow (the demo
 * seed); the person then signs in through the real two-step flow. Returns the
 * secret in base32, as an authenticator app is given it.
 */
export async function storeVerifiedAuthenticator(auth: Auth, userId: string): Promise<{ secret: string; backupCodes: string[] }> {
  const context = await auth.$context;
  const rawSecret = generateRandomString(32);
  const backupCodes = Array.from({ length: 10 }, () => generateRandomString(10, 'a-z', '0-9', 'A-Z')).map((code) => `${code.slice(0, 5)}-${code.slice(5)}`);
  await context.adapter.create({
    model: 'twoFactor',
    data: {
      userId,
      secret: await symmetricEncrypt({ key: context.secretConfig, data: rawSecret }),
      backupCodes: await symmetricEncrypt({ key: context.secretConfig, data: JSON.stringify(backupCodes) }),
      verified: true,
    },
  });
  await context.internalAdapter.updateUser(userId, { twoFactorEnabled: true });
  // better-auth's HMAC key is the secret's UTF-8 bytes; authenticator apps take them in base32.
  return { secret: base32Encode(Buffer.from(rawSecret, 'utf8')), backupCodes };
}

/** The otpauth:// URI an authenticator app reads from a QR code (Key Uri Format), as better-auth builds it. */
export function otpauthUri({ issuer, account, secret }: { issuer: string; account: string; secret: string }): string {
  const label = encodeURIComponent(`${issuer}:${account}`);
  return `otpauth://totp/${label}?secret=${secret}&issuer=${encodeURIComponent(issuer)}&digits=${TOTP_DIGITS}&period=${TOTP_PERIOD_SECONDS}`;
}

/** RFC 4648 base32 without padding, as otpauth:// URIs carry secrets. */
export function base32Encode(bytes: Uint8Array): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = ((value << 8) | byte) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}
