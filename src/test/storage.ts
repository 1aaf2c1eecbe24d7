import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { Config, S3Config } from '../server/config';
import { backends, type Backend } from './databases';
import { startS3Peer, type S3Peer } from './s3-peer';

/** Where tests keep files: DATA_DIR/files, or a bucket on a real S3 server (s3rver) the test file starts. */
export const storageBackends = ['disk', 's3'] as const;
export type StorageKind = (typeof storageBackends)[number];
/** Every database with every store, for `describe.each(databasesAndStores)('… on %s with %s storage', (backend, storage) => …)`. */
export const databasesAndStores: [Backend, StorageKind][] = backends.flatMap((backend) =>
  storageBackends.map((kind): [Backend, StorageKind] => [backend, kind]),
);

/** One file the store wrote, read straight from where the store keeps it (not through the store). */
export interface RawFile {
  /** Its path under the store's folder. */
  name: string;
  bytes: Buffer;
}

export interface TestStorage {
  readonly kind: StorageKind;
  /** The S3_* environment of this describe's bucket (nothing for disk); set once its beforeAll ran. */
  readonly env: Record<string, string>;
  /** The bucket's configuration, for `createS3Store` (s3 only). */
  readonly s3: S3Config | undefined;
  /**
   * Every file the store holds for `config`, bytes as they lie on disk: the
   * disk store's files (temporary ones too), or everything s3rver keeps for
   * the bucket (objects, unfinished multipart parts, metadata). What the
   * proof of encryption reads.
   */
  rawFiles(config: Pick<Config, 'dataDir'>): AsyncGenerator<RawFile>;
  /** The file that holds one object's bytes, to read or alter them behind the store's back. */
  objectPath(config: Pick<Config, 'dataDir'>, key: string): string;
}

// The test file's S3 server: started by a describe that needs it and stopped when no running describe does
// (describes that run one after another each start it, in a fraction of a second); each describe gets its own bucket.
let peer: Promise<S3Peer> | undefined;
let users = 0;

async function acquirePeer(): Promise<S3Peer> {
  users++;
  peer ??= startS3Peer();
  return peer;
}

async function releasePeer() {
  users--;
  if (users > 0 || !peer) return;
  const running = peer;
  peer = undefined;
  await (await running).stop();
}

async function* filesUnder(root: string, prefix = ''): AsyncGenerator<RawFile> {
  const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const full = path.join(root, entry.name);
    const name = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) yield* filesUnder(full, name);
    else if (entry.isFile()) yield { name, bytes: await readFile(full) };
  }
}

/**
 * Storage of `kind` for the `describe` it is called in: for s3, a fresh
 * bucket on this file's S3 server, started in the describe's `beforeAll`
 * unless it runs already, and stopped in `afterAll` unless another running
 * describe still uses it. `setupApi(backend, { storage })` calls it; other
 * tests may too.
 */
export function useStorage(kind: StorageKind): TestStorage {
  let bucket: { env: Record<string, string>; config: S3Config; directory: string } | undefined;
  if (kind === 's3') {
    beforeAll(async () => {
      const server = await acquirePeer();
      bucket = { ...(await server.createBucket()), directory: server.directory };
    });
    afterAll(async () => {
      bucket = undefined;
      await releasePeer();
    });
  }
  const ready = () => {
    if (!bucket) throw new Error('useStorage: the bucket is made in beforeAll; use it inside a hook or a test');
    return bucket;
  };
  return {
    kind,
    get env() {
      return kind === 's3' ? ready().env : {};
    },
    get s3() {
      return kind === 's3' ? ready().config : undefined;
    },
    rawFiles(config) {
      if (kind === 'disk') return filesUnder(path.join(config.dataDir, 'files'));
      const { directory, config: s3 } = ready();
      return filesUnder(path.join(directory, s3.bucket));
    },
    objectPath(config, key) {
      if (kind === 'disk') return path.join(config.dataDir, 'files', ...key.split('/'));
      const { directory, config: s3 } = ready();
      // s3rver keeps an object as `<key>._S3rver_object` beside its metadata.
      return path.join(directory, s3.bucket, ...`${key}._S3rver_object`.split('/'));
    },
  };
}
