import type { Readable } from 'node:stream';

/**
 * Where stored files' (already encrypted) bytes live: the local disk by
 * default, any S3-compatible store in production. Keys are Coverly's own
 * (random, never a user's file name). A `put` is all or nothing: a body that
 * fails half-way leaves no object behind, and the object appears under its
 * key only once every byte is durable. The database row that points at an
 * object is written after `put` resolves (DESIGN.md, "Nothing lost").
 */
export interface ObjectStore {
  put(key: string, body: Readable): Promise<{ size: number }>;
  /** The object's bytes, or the inclusive range `start`…`end` of them. Throws ObjectNotFound. */
  get(key: string, range?: { start: number; end: number }): Promise<Readable>;
  delete(key: string): Promise<void>;
  /** Every object, with when it was written (the orphan sweep reads this). */
  list(): AsyncIterable<{ key: string; size: number; writtenAt: Date }>;
  /**
   * Gives up what unfinished writes started before `olderThan` left behind
   * (an S3 multipart upload never completed or aborted, a disk store's
   * temporary file). A store that cannot list them says so in `unsupported`.
   */
  abortStaleUploads?(olderThan: Date): Promise<{ aborted: number; unsupported?: string }>;
}

export class ObjectNotFound extends Error {
  override name = 'ObjectNotFound';
}

/** Object keys: lower-case letters, digits and dashes, in up to four `/`-separated parts. */
const KEY = /^[a-z0-9][a-z0-9-]{0,99}(\/[a-z0-9][a-z0-9-]{0,99}){0,3}$/;

export function assertObjectKey(key: string) {
  if (!KEY.test(key)) throw new Error(`Not an object key: ${JSON.stringify(key)}`);
}
