import { createHash, randomUUID } from 'node:crypto';
import { PassThrough, Transform, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { unwrapDataKey, wrapDataKey, type MasterKey } from '../crypto/key-wrap';
import {
  DecryptionError,
  decryptRangeStream,
  decryptStream,
  encryptStream,
  headerLength,
  newDataKey,
  parseHeader,
  segmentSpan,
} from '../crypto/streaming-aead';
import type { ObjectStore } from '../storage/object-store';

/** A file body went past the most it may be: nothing of it was kept. */
export class FileTooLarge extends Error {
  override name = 'FileTooLarge';
  constructor(readonly maxBytes: number) {
    super(`The file is larger than ${maxBytes} bytes`);
  }
}

/** Where a stored file is and how to open it: what its database row keeps. */
export interface StoredFile {
  objectKey: string;
  /** The file's data key, wrapped by a master key (key-wrap.ts). */
  wrappedKey: Buffer;
  /** Plaintext bytes. */
  size: number;
  /** SHA-256 of the plaintext, hex. */
  sha256: string;
}

export interface StoreOptions {
  /** The object key's folder, e.g. `files/<loanId>`; a random id is appended. */
  prefix: string;
  /** More plaintext than this and the store is abandoned with FileTooLarge. */
  maxBytes: number;
  /** Sees every plaintext chunk in order before it is encrypted (content checks); a promise it answers holds the next chunk back until it settles. */
  inspect?: (chunk: Buffer) => void | Promise<void>;
}

/**
 * Files at rest: every byte is encrypted (streaming AEAD, decision 012) under
 * a fresh data key before it reaches the object store, and the data key is
 * kept only wrapped by the current master key. `store` resolves once the
 * object is durable, so the caller writes the row that points at it after;
 * on any failure (too large, the client went away, the store failed) nothing
 * is left behind.
 */
export class FileVault {
  constructor(
    readonly objects: ObjectStore,
    /** The current master key first; older ones only unwrap (until rotation re-wraps their keys). */
    readonly masterKeys: readonly MasterKey[],
  ) {
    if (masterKeys.length === 0) throw new Error('FileVault needs a master key');
  }

  get currentKey(): MasterKey {
    return this.masterKeys[0]!;
  }

  async store(body: Readable, options: StoreOptions): Promise<StoredFile> {
    const objectKey = `${options.prefix}/${randomUUID()}`;
    const dataKey = newDataKey();
    const hash = createHash('sha256');
    let size = 0;
    const measure = new Transform({
      transform(chunk: Buffer, _encoding, callback: TransformCallback) {
        size += chunk.length;
        if (size > options.maxBytes) return callback(new FileTooLarge(options.maxBytes));
        let pending: void | Promise<void>;
        try {
          hash.update(chunk);
          pending = options.inspect?.(chunk);
        } catch (error) {
          return callback(error as Error);
        }
        if (pending) pending.then(() => callback(null, chunk), callback);
        else callback(null, chunk);
      },
    });
    const encrypted = new PassThrough();
    const writing = this.objects.put(objectKey, encrypted);
    try {
      await Promise.all([pipeline(body, measure, encryptStream(dataKey, this.currentKey.id), encrypted), writing]);
    } catch (error) {
      // The put may have finished before the pipe failed (or failed itself): either way nothing stays.
      encrypted.destroy();
      await writing.catch(() => {});
      await this.objects.delete(objectKey).catch(() => {});
      throw error;
    }
    return { objectKey, wrappedKey: wrapDataKey(this.currentKey, dataKey), size, sha256: hash.digest('hex') };
  }

  /** Stores bytes already in memory (previews, generated files). */
  storeBuffer(bytes: Buffer, prefix: string): Promise<StoredFile> {
    const body = new PassThrough();
    body.end(bytes);
    return this.store(body, { prefix, maxBytes: bytes.length });
  }

  /**
   * The plaintext of a stored file, or of the inclusive byte range of it.
   * Every segment is authenticated before a byte of it is released; an
   * altered or cut-short object makes the stream fail with a DecryptionError.
   */
  async open(file: Pick<StoredFile, 'objectKey' | 'wrappedKey' | 'size'>, range?: { start: number; end: number }): Promise<Readable> {
    const dataKey = unwrapDataKey(this.masterKeys, file.wrappedKey);
    if (!range) {
      const stored = await this.objects.get(file.objectKey);
      const plain = decryptStream(dataKey);
      stored.on('error', (error) => plain.destroy(error));
      return stored.pipe(plain);
    }
    // The header says the key id, hence its length; read it, then only the segments the range touches.
    const head = await readAll(await this.objects.get(file.objectKey, { start: 0, end: headerLength('x'.repeat(255)) - 1 }));
    const header = parseHeader(head);
    if (!header) throw new DecryptionError('The stored file ends inside its header');
    const span = segmentSpan(file.size, range.start, range.end, headerLength(header.keyId));
    const stored = await this.objects.get(file.objectKey, { start: span.cipherStart, end: span.cipherEnd });
    const plain = decryptRangeStream(dataKey, header, span);
    stored.on('error', (error) => plain.destroy(error));
    return stored.pipe(plain);
  }

  /** Re-wraps a data key under the current master key (rotation): the file body is not touched. */
  rewrap(wrappedKey: Buffer): Buffer {
    return wrapDataKey(this.currentKey, unwrapDataKey(this.masterKeys, wrappedKey));
  }

  delete(objectKey: string): Promise<void> {
    return this.objects.delete(objectKey);
  }
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
