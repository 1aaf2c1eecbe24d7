import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';

/**
 * Streaming authenticated encryption of stored files, after Tink's
 * AES-GCM-HKDF streaming AEAD (decision 012):
 *
 *   header   = version (1) ‖ key id length (1) ‖ key id (UTF-8) ‖ salt (32) ‖ nonce prefix (7)
 *   segments = AES-256-GCM(segment key, nonce, 64 KiB of plaintext) ‖ tag (16), the last one shorter
 *   segment key = HKDF-SHA256(data key, salt, "coverly/file/v1" ‖ key id)
 *   nonce    = nonce prefix (7) ‖ segment index (4, big-endian) ‖ last-segment flag (1)
 *
 * Each segment is authenticated on its own, with its place and whether it is
 * the last in its nonce: a flipped bit, a reordered or dropped segment, or a
 * stream cut at a segment boundary fails authentication, and no byte of a
 * segment is released before its tag has been checked. Memory stays at one
 * segment whatever the size, and a byte range decrypts only the segments it
 * touches.
 */

export const PLAINTEXT_SEGMENT = 64 * 1024;
export const TAG_BYTES = 16;
export const CIPHERTEXT_SEGMENT = PLAINTEXT_SEGMENT + TAG_BYTES;
const VERSION = 1;
const SALT_BYTES = 32;
const NONCE_PREFIX_BYTES = 7;
const KEY_BYTES = 32;
const MAX_SEGMENTS = 2 ** 32;

/** A stored file that is not what was written: tampered with, cut short, or under another key. */
export class DecryptionError extends Error {
  override name = 'DecryptionError';
}

export interface FileHeader {
  keyId: string;
  salt: Buffer;
  noncePrefix: Buffer;
  /** The header's bytes, as stored in front of the first segment. */
  bytes: Buffer;
}

function encodeHeader(keyId: string, salt: Buffer, noncePrefix: Buffer): Buffer {
  const id = Buffer.from(keyId, 'utf8');
  if (id.length === 0 || id.length > 255) throw new Error('A key id is 1 to 255 bytes of UTF-8');
  return Buffer.concat([Buffer.from([VERSION, id.length]), id, salt, noncePrefix]);
}

/** Reads the header at the start of `bytes`; undefined while too few bytes have arrived. */
export function parseHeader(bytes: Buffer): FileHeader | undefined {
  if (bytes.length < 2) return undefined;
  if (bytes[0] !== VERSION) throw new DecryptionError(`Unknown file format version ${bytes[0]}`);
  const idLength = bytes[1]!;
  const length = 2 + idLength + SALT_BYTES + NONCE_PREFIX_BYTES;
  if (idLength === 0) throw new DecryptionError('The file header names no key');
  if (bytes.length < length) return undefined;
  return {
    keyId: bytes.subarray(2, 2 + idLength).toString('utf8'),
    salt: bytes.subarray(2 + idLength, 2 + idLength + SALT_BYTES),
    noncePrefix: bytes.subarray(2 + idLength + SALT_BYTES, length),
    bytes: bytes.subarray(0, length),
  };
}

export const headerLength = (keyId: string) => 2 + Buffer.byteLength(keyId, 'utf8') + SALT_BYTES + NONCE_PREFIX_BYTES;

function segmentKey(dataKey: Buffer, header: Pick<FileHeader, 'salt' | 'keyId'>): Buffer {
  if (dataKey.length !== KEY_BYTES) throw new Error('A data key is 32 bytes');
  return Buffer.from(hkdfSync('sha256', dataKey, header.salt, Buffer.from(`coverly/file/v1${header.keyId}`, 'utf8'), KEY_BYTES));
}

function nonceOf(prefix: Buffer, index: number, last: boolean): Buffer {
  if (index >= MAX_SEGMENTS) throw new Error('A file has at most 2^32 segments');
  const nonce = Buffer.alloc(12);
  prefix.copy(nonce, 0);
  nonce.writeUInt32BE(index, NONCE_PREFIX_BYTES);
  nonce[11] = last ? 1 : 0;
  return nonce;
}

/** How many bytes a plaintext of `size` bytes takes once encrypted under `keyId`. */
export const ciphertextSize = (size: number, keyId: string) => storedSize(size, headerLength(keyId));

/** Header, plaintext and one tag per segment (an empty file is one empty segment). */
const storedSize = (size: number, header: number) => header + size + Math.max(1, Math.ceil(size / PLAINTEXT_SEGMENT)) * TAG_BYTES;

/** A fresh random data key for one file. */
export const newDataKey = () => randomBytes(KEY_BYTES);

/** Encrypts a stream under `dataKey`: the header first, then one sealed segment per 64 KiB. */
export function encryptStream(dataKey: Buffer, keyId: string): Transform {
  const header = { keyId, salt: randomBytes(SALT_BYTES), noncePrefix: randomBytes(NONCE_PREFIX_BYTES) };
  const key = segmentKey(dataKey, header);
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let index = 0;
  const seal = (plain: Buffer, last: boolean) => {
    const cipher = createCipheriv('aes-256-gcm', key, nonceOf(header.noncePrefix, index++, last));
    return Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
  };
  return new Transform({
    construct(callback) {
      this.push(encodeHeader(keyId, header.salt, header.noncePrefix));
      callback();
    },
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      pending.push(chunk);
      pendingBytes += chunk.length;
      // Keep at least one byte back: only the end of the stream says which segment is the last.
      if (pendingBytes > PLAINTEXT_SEGMENT) {
        let buffer = Buffer.concat(pending, pendingBytes);
        while (buffer.length > PLAINTEXT_SEGMENT) {
          this.push(seal(buffer.subarray(0, PLAINTEXT_SEGMENT), false));
          buffer = buffer.subarray(PLAINTEXT_SEGMENT);
        }
        pending = [buffer];
        pendingBytes = buffer.length;
      }
      callback();
    },
    flush(callback: TransformCallback) {
      this.push(seal(Buffer.concat(pending, pendingBytes), true));
      callback();
    },
  });
}

/**
 * Decrypts a whole stored file. Each segment's plaintext is pushed only after
 * its tag checked out; a stream that ends early, or any altered byte, ends in
 * a DecryptionError. `expectedKeyId` refuses a file written under another key.
 */
export function decryptStream(dataKey: Buffer, expectedKeyId?: string): Transform {
  let header: FileHeader | undefined;
  let key: Buffer | undefined;
  let buffer: Buffer = Buffer.alloc(0);
  let index = 0;
  const open = (sealed: Buffer, last: boolean) => openSegment(key!, header!.noncePrefix, index++, sealed, last);
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      try {
        buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
        if (!header) {
          header = parseHeader(buffer);
          if (!header) return callback();
          if (expectedKeyId !== undefined && header.keyId !== expectedKeyId) throw new DecryptionError('The file was written under another key');
          key = segmentKey(dataKey, header);
          buffer = buffer.subarray(header.bytes.length);
        }
        // A full segment followed by at least one more byte is not the last one.
        while (buffer.length > CIPHERTEXT_SEGMENT) {
          this.push(open(buffer.subarray(0, CIPHERTEXT_SEGMENT), false));
          buffer = buffer.subarray(CIPHERTEXT_SEGMENT);
        }
        callback();
      } catch (error) {
        callback(error as Error);
      }
    },
    flush(callback: TransformCallback) {
      try {
        if (!header) throw new DecryptionError('The file ends inside its header');
        this.push(open(buffer, true));
        callback();
      } catch (error) {
        callback(error as Error);
      }
    },
  });
}

function openSegment(key: Buffer, noncePrefix: Buffer, index: number, sealed: Buffer, last: boolean): Buffer {
  if (sealed.length < TAG_BYTES) throw new DecryptionError(`Segment ${index} is cut short`);
  const decipher = createDecipheriv('aes-256-gcm', key, nonceOf(noncePrefix, index, last));
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
  const plain = decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES));
  try {
    return Buffer.concat([plain, decipher.final()]);
  } catch {
    throw new DecryptionError(`Segment ${index} failed authentication: the stored file was altered or cut short`);
  }
}

/** Which stored bytes hold plaintext bytes `start`…`end` (inclusive) of a file of `size` bytes, and what to keep of them. */
export interface SegmentSpan {
  /** Ciphertext bytes to read, after the header (inclusive). */
  cipherStart: number;
  cipherEnd: number;
  firstSegment: number;
  /** The file's last segment index: the one sealed with the last flag. */
  lastSegment: number;
  /** Plaintext bytes to drop from the first segment read, and how many to keep in all. */
  skip: number;
  take: number;
}

export function segmentSpan(size: number, start: number, end: number, header: number): SegmentSpan {
  if (!(start >= 0 && end >= start && end < size)) throw new RangeError(`Bytes ${start}-${end} are outside a file of ${size} bytes`);
  const firstSegment = Math.floor(start / PLAINTEXT_SEGMENT);
  const endSegment = Math.floor(end / PLAINTEXT_SEGMENT);
  const lastSegment = Math.max(0, Math.ceil(size / PLAINTEXT_SEGMENT) - 1);
  const cipherStart = header + firstSegment * CIPHERTEXT_SEGMENT;
  const cipherEnd = Math.min(header + (endSegment + 1) * CIPHERTEXT_SEGMENT, storedSize(size, header)) - 1;
  return { cipherStart, cipherEnd, firstSegment, lastSegment, skip: start - firstSegment * PLAINTEXT_SEGMENT, take: end - start + 1 };
}

/**
 * Decrypts the segments of a byte range (read from `span.cipherStart` to
 * `span.cipherEnd` of the stored file) and keeps the asked plaintext bytes:
 * ranges align to segments, and every segment read is authenticated whole.
 */
export function decryptRangeStream(dataKey: Buffer, header: FileHeader, span: SegmentSpan): Transform {
  const key = segmentKey(dataKey, header);
  let buffer: Buffer = Buffer.alloc(0);
  let index = span.firstSegment;
  let skip = span.skip;
  let left = span.take;
  const emit = (stream: Transform, sealed: Buffer) => {
    const plain = openSegment(key, header.noncePrefix, index, sealed, index === span.lastSegment);
    index += 1;
    const part = plain.subarray(skip, skip + left);
    skip = 0;
    left -= part.length;
    if (part.length) stream.push(part);
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      try {
        buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
        while (buffer.length >= CIPHERTEXT_SEGMENT && index < span.lastSegment) {
          emit(this, buffer.subarray(0, CIPHERTEXT_SEGMENT));
          buffer = buffer.subarray(CIPHERTEXT_SEGMENT);
        }
        callback();
      } catch (error) {
        callback(error as Error);
      }
    },
    flush(callback: TransformCallback) {
      try {
        if (buffer.length > 0 || left > 0) emit(this, buffer);
        if (left > 0) throw new DecryptionError('The stored file ends before the asked range');
        callback();
      } catch (error) {
        callback(error as Error);
      }
    },
  });
}
