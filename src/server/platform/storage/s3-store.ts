import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { ConfigError, type S3Config } from '../../config';
import { assertObjectKey, ObjectNotFound, type ObjectStore } from './object-store';

export interface S3StoreOptions {
  /** Bytes per multipart part (at least 5 MiB, S3's floor); a body that fits in one goes up as one PUT. */
  partSize?: number;
  /** Parts in flight at once: memory per upload stays near partSize × (queueSize + 1). */
  queueSize?: number;
  /** Keys per ListObjectsV2 page (S3's most, 1000, by default; tests make it small to see the paging). */
  listPageSize?: number;
}

const MiB = 1024 * 1024;

/** The SDK client for the configuration, with the settings non-AWS stores need. */
export function s3Client(config: S3Config): S3Client {
  return new S3Client({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint, forcePathStyle: true } : {}),
    // Without keys the SDK's default chain applies (AWS_* variables, a profile, the instance's role).
    ...(config.accessKeyId && config.secretAccessKey ? { credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } } : {}),
    // Since 3.729 the SDK adds CRC32 checksums to every upload and checks them on every download;
    // MinIO, Ceph, R2, s3rver and others reject or lack them. The bodies are authenticated by our own AEAD anyway.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

const isS3Error = (error: unknown, ...names: string[]): error is S3ServiceException =>
  error instanceof S3ServiceException && (names.includes(error.name) || names.includes(String(error.$metadata?.httpStatusCode)));

/**
 * Objects in an S3-compatible bucket (S3_*). A put streams through
 * lib-storage's `Upload`: one PUT for a small body, otherwise a multipart
 * upload of `partSize` parts, `queueSize` at a time, so memory stays flat
 * whatever the size. S3 makes an object visible only when its upload
 * completes, so a put is all or nothing; a failed multipart upload is
 * aborted at once, and one that could not be (the process died) is aborted
 * by the sweep (`abortStaleUploads`) a day later.
 */
export async function createS3Store(config: S3Config, options: S3StoreOptions = {}): Promise<ObjectStore> {
  const client = s3Client(config);
  const Bucket = config.bucket;
  const partSize = options.partSize ?? 8 * MiB;
  const queueSize = options.queueSize ?? 2;

  try {
    await client.send(new HeadBucketCommand({ Bucket }));
  } catch (error) {
    client.destroy();
    const where = config.endpoint ? ` at ${config.endpoint}` : '';
    const reason = error instanceof Error ? error.message || error.name : String(error);
    // An answer from the store (no such bucket, access denied, wrong region) is a configuration problem.
    if (error instanceof S3ServiceException) throw new ConfigError([`S3_BUCKET: the bucket "${Bucket}"${where} cannot be used (${error.name}: ${reason})`]);
    throw new Error(`S3 storage: the bucket "${Bucket}"${where} cannot be reached: ${reason}`, { cause: error });
  }

  return {
    async put(key, body: Readable) {
      assertObjectKey(key);
      let size = 0;
      let bodyError: unknown;
      const counted = new Transform({
        transform(chunk: Buffer, _encoding, callback: TransformCallback) {
          size += chunk.length;
          callback(null, chunk);
        },
      });
      const fail = (error: Error) => {
        bodyError ??= error;
        counted.destroy(error);
      };
      body.once('error', fail);
      // A body destroyed without an error never ends either: the upload must not wait for it.
      body.once('close', () => {
        if (!body.readableEnded) fail(new Error('The body closed before its end'));
      });
      body.pipe(counted);
      const upload = new Upload({
        client,
        params: { Bucket, Key: key, Body: counted, ContentType: 'application/octet-stream' },
        partSize,
        queueSize,
        leavePartsOnError: false,
      });
      try {
        await upload.done();
      } catch (error) {
        body.unpipe(counted);
        counted.destroy();
        // When the body failed, that is the reason, not whatever aborting the upload answered.
        throw bodyError ?? error;
      }
      return { size };
    },

    async get(key, range) {
      assertObjectKey(key);
      try {
        const response = await client.send(new GetObjectCommand({ Bucket, Key: key, ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }));
        return response.Body as Readable;
      } catch (error) {
        if (isS3Error(error, 'NoSuchKey', 'NotFound', '404')) throw new ObjectNotFound(key);
        throw error;
      }
    },

    async delete(key) {
      assertObjectKey(key);
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },

    async *list() {
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({
            Bucket,
            ...(options.listPageSize ? { MaxKeys: options.listPageSize } : {}),
            ...(ContinuationToken ? { ContinuationToken } : {}),
          }),
        );
        for (const object of page.Contents ?? []) {
          if (object.Key) yield { key: object.Key, size: object.Size ?? 0, writtenAt: object.LastModified ?? new Date(0) };
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },

    async abortStaleUploads(olderThan) {
      let aborted = 0;
      let KeyMarker: string | undefined;
      let UploadIdMarker: string | undefined;
      try {
        do {
          const page = await client.send(new ListMultipartUploadsCommand({ Bucket, ...(KeyMarker ? { KeyMarker, UploadIdMarker } : {}) }));
          for (const upload of page.Uploads ?? []) {
            if (!upload.Key || !upload.UploadId || !upload.Initiated || upload.Initiated >= olderThan) continue;
            await client.send(new AbortMultipartUploadCommand({ Bucket, Key: upload.Key, UploadId: upload.UploadId }));
            aborted++;
          }
          KeyMarker = page.IsTruncated ? page.NextKeyMarker : undefined;
          UploadIdMarker = page.IsTruncated ? page.NextUploadIdMarker : undefined;
        } while (KeyMarker);
      } catch (error) {
        // Some S3-compatible stores (s3rver, the tests' peer, among them) do not list multipart uploads.
        if (isS3Error(error, 'NotImplemented', 'MethodNotAllowed', '501', '405')) return { aborted, unsupported: `${error.name}: ${error.message}` };
        throw error;
      }
      return { aborted };
    },
  };
}
