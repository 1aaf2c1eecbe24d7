import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { S3Config } from '../server/config';
import { s3Client } from '../server/platform/storage/s3-store';

/** s3rver's fixed credentials: it checks every request's signature against them. */
const ACCESS_KEY = 'S3RVER';

export interface S3Peer {
  endpoint: string;
  /** Where s3rver keeps buckets: `<directory>/<bucket>/…/<key>._S3rver_object` holds an object's bytes. */
  directory: string;
  /** A new, empty bucket; its S3_* environment and its configuration. */
  createBucket(): Promise<{ bucket: string; env: Record<string, string>; config: S3Config }>;
  stop(): Promise<void>;
}

/**
 * A real S3 server (s3rver 3.7) in its own process, on a random loopback
 * port, over a temporary folder: the tests' S3-compatible store, driven by
 * the same SDK calls as production. It lacks ListMultipartUploads and
 * AbortMultipartUpload (both answer NotImplemented / MethodNotAllowed).
 */
export async function startS3Peer(): Promise<S3Peer> {
  const directory = await mkdtemp(path.join(tmpdir(), 'coverly-s3-'));
  const child = spawn(process.execPath, ['--openssl-legacy-provider', path.join(import.meta.dirname, 's3-peer-server.mjs'), directory], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  const lines = createInterface({ input: child.stdout });
  const [line] = (await Promise.race([once(lines, 'line'), exited.then(([code]) => Promise.reject(new Error(`s3rver exited with ${code}`)))])) as [string];
  lines.close();
  const { port } = JSON.parse(line) as { port: number };
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    directory,
    async createBucket() {
      const bucket = `coverly-${randomBytes(6).toString('hex')}`;
      const config: S3Config = { bucket, endpoint, region: 'us-east-1', accessKeyId: ACCESS_KEY, secretAccessKey: ACCESS_KEY };
      const client = s3Client(config);
      try {
        await client.send(new CreateBucketCommand({ Bucket: bucket }));
      } finally {
        client.destroy();
      }
      return {
        bucket,
        config,
        env: { S3_BUCKET: bucket, S3_ENDPOINT: endpoint, S3_REGION: config.region, S3_ACCESS_KEY_ID: ACCESS_KEY, S3_SECRET_ACCESS_KEY: ACCESS_KEY },
      };
    },
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      await rm(directory, { recursive: true, force: true });
    },
  };
}
