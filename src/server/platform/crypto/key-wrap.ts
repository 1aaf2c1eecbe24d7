import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { DecryptionError } from './streaming-aead';

/**
 * Data keys at rest: each file's random data key is kept in its database row
 * wrapped (AES-256-GCM) by a master key from configuration, never in the
 * clear. A wrapped key names the master key that wrapped it, so rotation can
 * re-wrap every data key under a new master key without touching a file:
 *
 *   wrapped = version (1) ‖ master key id length (1) ‖ master key id ‖ iv (12) ‖ ciphertext (32) ‖ tag (16)
 *
 * The master key id is also the GCM associated data: a wrapped key cannot be
 * passed off as wrapped by another master key.
 */

const VERSION = 1;

export interface MasterKey {
  id: string;
  /** 32 bytes. */
  key: Buffer;
}

export function wrapDataKey(master: MasterKey, dataKey: Buffer): Buffer {
  if (master.key.length !== 32) throw new Error('A master key is 32 bytes');
  const id = Buffer.from(master.id, 'utf8');
  if (id.length === 0 || id.length > 255) throw new Error('A master key id is 1 to 255 bytes of UTF-8');
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', master.key, iv);
  cipher.setAAD(id);
  return Buffer.concat([Buffer.from([VERSION, id.length]), id, iv, cipher.update(dataKey), cipher.final(), cipher.getAuthTag()]);
}

/** The id of the master key a wrapped data key needs. */
export function wrappingKeyId(wrapped: Buffer): string {
  if (wrapped.length < 2 || wrapped[0] !== VERSION) throw new DecryptionError('Unknown wrapped key format');
  return wrapped.subarray(2, 2 + wrapped[1]!).toString('utf8');
}

/** Unwraps with whichever of `masters` wrapped it; a DecryptionError when none did or the bytes were altered. */
export function unwrapDataKey(masters: readonly MasterKey[], wrapped: Buffer): Buffer {
  const id = wrappingKeyId(wrapped);
  const master = masters.find((candidate) => candidate.id === id);
  if (!master) throw new DecryptionError(`The master key ${id} is not configured`);
  const start = 2 + wrapped[1]!;
  const iv = wrapped.subarray(start, start + 12);
  const tag = wrapped.subarray(wrapped.length - 16);
  const body = wrapped.subarray(start + 12, wrapped.length - 16);
  const decipher = createDecipheriv('aes-256-gcm', master.key, iv);
  decipher.setAAD(Buffer.from(id, 'utf8'));
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(body), decipher.final()]);
  } catch {
    throw new DecryptionError(`A data key wrapped by ${id} failed authentication`);
  }
}
