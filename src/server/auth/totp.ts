import { createHmac, timingSafeEqual } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { totpLastStep } from '../db/schema';

/**
 * The RFC 6238 time step whose code `code` is, among those better-auth
 * accepts (the current step and one either side), or null for a wrong code.
 * `key` is the authenticator secret as better-auth stores it, decrypted.
 */
export function totpStepOf(
  key: Uint8Array,
  code: string,
  { digits, periodSeconds, now = Date.now() }: { digits: number; periodSeconds: number; now?: number },
): number | null {
  const current = Math.floor(now / 1000 / periodSeconds);
  const given = Buffer.from(code);
  for (const step of [current - 1, current, current + 1]) {
    const expected = Buffer.from(hotp(key, step, digits));
    if (given.length === expected.length && timingSafeEqual(given, expected)) return step;
  }
  return null;
}

/** RFC 4226 HOTP with HMAC-SHA-1, as authenticator apps compute it. */
export function hotp(key: Uint8Array, counter: number, digits: number): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const digest = createHmac('sha1', key).update(message).digest();
  const offset = digest[digest.length - 1]! & 0x0f;
  return String((digest.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits).padStart(digits, '0');
}

/**
 * Marks `step` as used by the account, atomically: true when it is newer
 * than every step the account used before, false for a replay (the same or
 * an earlier step), also when two requests carry the same code at once.
 */
export async function claimTotpStep(db: Db, userId: string, step: number): Promise<boolean> {
  const claimed = await db
    .insert(totpLastStep)
    .values({ userId, step })
    .onConflictDoUpdate({
      target: totpLastStep.userId,
      set: { step, usedAt: sql`now()` },
      setWhere: sql`${totpLastStep.step} < ${step}`,
    })
    .returning({ userId: totpLastStep.userId });
  return claimed.length === 1;
}

/** RFC 4648 base32 (the alphabet of otpauth:// secrets), padding and spaces ignored. */
export function base32Decode(input: string): Uint8Array {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of input.toUpperCase().replace(/=+$/, '').replace(/\s/g, '')) {
    const index = alphabet.indexOf(char);
    if (index < 0) throw new Error(`Not base32: ${char}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Uint8Array.from(out);
}
