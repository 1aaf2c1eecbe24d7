import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError, type Config } from '../../config';
import type { MasterKey } from '../crypto/key-wrap';
import { createDiskStore } from '../storage/disk-store';
import type { ObjectStore } from '../storage/object-store';
import { FileVault } from './file-vault';

/** A master key from its base64 text; its id is derived from it, so no one has to name keys. */
export function masterKeyFrom(base64: string): MasterKey {
  const key = Buffer.from(base64, 'base64');
  if (key.length !== 32) throw new ConfigError(['MASTER_KEY: must be 32 random bytes in base64']);
  return { id: `mk-${createHash('sha256').update(key).digest('hex').slice(0, 16)}`, key };
}

/** Where embedded mode keeps the master key it generated. */
export const generatedMasterKeyFile = (dataDir: string) => path.join(dataDir, 'keys', 'master-key');

/**
 * The master keys, current first: MASTER_KEY (and MASTER_KEYS_RETIRED) from
 * the environment, or — embedded mode only — one generated once into
 * DATA_DIR/keys/master-key. With DATABASE_URL there is no default: every
 * instance must read every file, and a key kept beside the data it protects
 * protects nothing, so the start stops with a ConfigError naming MASTER_KEY.
 */
export async function resolveMasterKeys(
  config: Pick<Config, 'masterKey' | 'retiredMasterKeys' | 'dataDir' | 'databaseUrl'>,
  logger: { warn: (obj: object, msg: string) => void },
): Promise<MasterKey[]> {
  const retired = config.retiredMasterKeys.map(masterKeyFrom);
  if (config.masterKey) return [masterKeyFrom(config.masterKey), ...retired];
  if (config.databaseUrl) {
    throw new ConfigError([
      'MASTER_KEY: must be set when DATABASE_URL is. It wraps the key of every stored file, and every instance needs the same one: ' +
        'make one with `openssl rand -base64 32` and keep it apart from the database and its backups.',
    ]);
  }
  const file = generatedMasterKeyFile(config.dataDir);
  const existing = await readFile(file, 'utf8').then(
    (text) => text.trim(),
    () => '',
  );
  if (existing) return [masterKeyFrom(existing), ...retired];
  const generated = randomBytes(32).toString('base64');
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(file, `${generated}\n`, { mode: 0o600, flag: 'wx' });
  await chmod(file, 0o600);
  logger.warn({ file }, 'MASTER_KEY is not set: generated one into the data folder. Set MASTER_KEY in production and keep it apart from backups.');
  return [masterKeyFrom(generated), ...retired];
}

/** The object store the configuration names: DATA_DIR/files, or the S3 bucket. */
export async function openObjectStore(config: Pick<Config, 'dataDir' | 's3'>): Promise<ObjectStore> {
  if (config.s3) {
    const { createS3Store } = await import('../storage/s3-store');
    return createS3Store(config.s3);
  }
  return createDiskStore(path.join(config.dataDir, 'files'));
}

export async function openFileVault(config: Config, logger: { warn: (obj: object, msg: string) => void }): Promise<FileVault> {
  const [keys, objects] = await Promise.all([resolveMasterKeys(config, logger), openObjectStore(config)]);
  return new FileVault(objects, keys);
}
