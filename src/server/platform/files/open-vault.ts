import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
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
/** Where embedded mode keeps the master keys `rotate-master-key` replaced, one file each, named by key id. */
export const retiredMasterKeyFolder = (dataDir: string) => path.join(dataDir, 'keys', 'retired');

const readKeyFile = (file: string) =>
  readFile(file, 'utf8').then(
    (text) => text.trim(),
    () => '',
  );

/** The keys embedded mode retired (DATA_DIR/keys/retired), oldest files first. */
async function retiredKeyFiles(dataDir: string): Promise<MasterKey[]> {
  const folder = retiredMasterKeyFolder(dataDir);
  const names = await readdir(folder).catch(() => []);
  const keys: MasterKey[] = [];
  for (const name of names.sort()) {
    const text = await readKeyFile(path.join(folder, name));
    if (text) keys.push(masterKeyFrom(text));
  }
  return keys;
}

/** Current first, then each older key once. */
function distinct(keys: MasterKey[]): MasterKey[] {
  return keys.filter((key, index) => keys.findIndex((other) => other.id === key.id) === index);
}

/**
 * The master keys, current first: MASTER_KEY (and MASTER_KEYS_RETIRED) from
 * the environment, or — embedded mode only — one generated once into
 * DATA_DIR/keys/master-key. With DATABASE_URL there is no default: every
 * instance must read every file, and a key kept beside the data it protects
 * protects nothing, so the start stops with a ConfigError naming MASTER_KEY.
 * Keys embedded mode retired (DATA_DIR/keys/retired) are read too, and so is
 * a generated key once MASTER_KEY is set: files stored before still open
 * until `rotate-master-key` has re-wrapped their keys (decision 014).
 */
export async function resolveMasterKeys(
  config: Pick<Config, 'masterKey' | 'retiredMasterKeys' | 'dataDir' | 'databaseUrl'>,
  logger: { warn: (obj: object, msg: string) => void },
): Promise<MasterKey[]> {
  const retired = [...config.retiredMasterKeys.map(masterKeyFrom), ...(await retiredKeyFiles(config.dataDir))];
  const file = generatedMasterKeyFile(config.dataDir);
  if (config.masterKey) {
    const generated = await readKeyFile(file);
    return distinct([masterKeyFrom(config.masterKey), ...retired, ...(generated ? [masterKeyFrom(generated)] : [])]);
  }
  if (config.databaseUrl) {
    throw new ConfigError([
      'MASTER_KEY: must be set when DATABASE_URL is. It wraps the key of every stored file, and every instance needs the same one: ' +
        'make one with `openssl rand -base64 32` and keep it apart from the database and its backups.',
    ]);
  }
  const existing = await readKeyFile(file);
  if (existing) return distinct([masterKeyFrom(existing), ...retired]);
  const generated = randomBytes(32).toString('base64');
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(file, `${generated}\n`, { mode: 0o600, flag: 'wx' });
  await chmod(file, 0o600);
  logger.warn({ file }, 'MASTER_KEY is not set: generated one into the data folder. Set MASTER_KEY in production and keep it apart from backups.');
  return distinct([masterKeyFrom(generated), ...retired]);
}

/** The object store the configuration names: DATA_DIR/files, or the S3 bucket. */
export async function openObjectStore(config: Pick<Config, 'dataDir' | 's3'>, options: { clearLeftovers?: boolean } = {}): Promise<ObjectStore> {
  if (config.s3) {
    const { createS3Store } = await import('../storage/s3-store');
    return createS3Store(config.s3);
  }
  return createDiskStore(path.join(config.dataDir, 'files'), options);
}

export async function openFileVault(config: Config, logger: { warn: (obj: object, msg: string) => void }): Promise<FileVault> {
  const [keys, objects] = await Promise.all([resolveMasterKeys(config, logger), openObjectStore(config)]);
  return new FileVault(objects, keys);
}
