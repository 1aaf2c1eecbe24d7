import { createHmac } from 'node:crypto';

/**
 * An RFC 6238 TOTP code (HMAC-SHA1, 6 digits, 30 s), computed independently
 * of better-auth so tests check it against the standard, as an authenticator
 * app would. `secretOrUri` is the base32 secret or the otpauth:// URI.
 */
export function totpCode(secretOrUri: string, at: number = Date.now()): string {
  const secret = secretOrUri.startsWith('otpauth://') ? (new URL(secretOrUri).searchParams.get('secret') ?? '') : secretOrUri;
  const key = base32Decode(secret);
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 1000 / 30)));
  const digest = createHmac('sha1', key).update(counter).digest();
  const offset = digest[digest.length - 1]! & 0x0f;
  const binary = digest.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 1_000_000).padStart(6, '0');
}

function base32Decode(input: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const clean = input.toUpperCase().replace(/=+$/, '').replace(/\s/g, '');
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = alphabet.indexOf(char);
    if (index < 0) throw new Error(`Not base32: ${char}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}
