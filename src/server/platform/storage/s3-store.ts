import type { S3Config } from '../../config';
import type { ObjectStore } from './object-store';

/** Objects in an S3-compatible bucket (S3_*). */
export async function createS3Store(config: S3Config): Promise<ObjectStore> {
  void config;
  throw new Error('S3 storage is not built yet');
}
