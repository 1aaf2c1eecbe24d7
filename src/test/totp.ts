import { base32Decode, hotp } from '../server/auth/totp';

/**
 * An RFC 6238 TOTP code (HMAC-SHA1, 6 digits, 30 s), computed as an
 * authenticator app would, independently of better-auth, so tests check it
 * against the standard. `secretOrUri` is the base32 secret or the otpauth:// URI.
 */
export function totpCode(secretOrUri: string, at: number = Date.now()): string {
  return hotp(base32Decode(secretOf(secretOrUri)), Math.floor(at / 1000 / 30), 6);
}

const secretOf = (secretOrUri: string) => (secretOrUri.startsWith('otpauth://') ? (new URL(secretOrUri).searchParams.get('secret') ?? '') : secretOrUri);

/** The newest step each secret has given a code for, in this test process. */
const lastStep = new Map<string, number>();

/**
 * The next step whose code has not been used yet, waiting for the clock when
 * the next one is not valid yet: Coverly accepts each code once (RFC 6238
 * §5.2), and any of the previous, current and next 30-second steps.
 */
async function nextUnusedStep(secret: string): Promise<number> {
  for (;;) {
    const now = Date.now();
    const current = Math.floor(now / 1000 / 30);
    // The previous step's code only early in a window, so it is still valid when the request arrives.
    const earliest = now % 30_000 < 25_000 ? current - 1 : current;
    const step = Math.max(earliest, (lastStep.get(secret) ?? -Infinity) + 1);
    if (step <= current + 1) return step;
    await new Promise((resolve) => setTimeout(resolve, (current + 1) * 30_000 - now + 50));
  }
}

/**
 * The next code an authenticator app would show that has not been used yet.
 * Three codes a window can be had at once; a fourth waits for the clock.
 */
export async function freshTotpCode(secretOrUri: string): Promise<string> {
  const secret = secretOf(secretOrUri);
  const step = await nextUnusedStep(secret);
  lastStep.set(secret, step);
  return hotp(base32Decode(secret), step, 6);
}

/** The code `freshTotpCode` would give next, without using it up (for a request that may not reach the server's check). */
export async function peekTotpCode(secretOrUri: string): Promise<string> {
  const secret = secretOf(secretOrUri);
  return hotp(base32Decode(secret), await nextUnusedStep(secret), 6);
}
