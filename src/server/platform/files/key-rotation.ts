import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { asc, eq, sql, type SQLWrapper } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { documentFile } from '../../db/schema';
import { unwrapDataKey, wrapDataKey, type MasterKey } from '../crypto/key-wrap';
import { DecryptionError } from '../crypto/streaming-aead';
import { generatedMasterKeyFile, masterKeyFrom, resolveMasterKeys, retiredMasterKeyFolder } from './open-vault';

/**
 * Master key rotation (decision 014): every data key is re-wrapped under the
 * current master key, a batch of rows per transaction, and no file body is
 * touched. It can stop and start again at any point: a row is picked up as
 * long as its wrapped key names another master key.
 *
 * The wrapped data keys live in document_file (the file's, and its preview's);
 * a table that keeps one more must be added to `WRAPPED` and `rewrapBatch`.
 */

/** The master key id a wrapped key names (key-wrap.ts: version ‖ id length ‖ id ‖ …), in SQL. */
const keyIdOf = (column: SQLWrapper) => sql`convert_from(substring(${column} from 3 for get_byte(${column}, 1)), 'UTF8')`;

const WRAPPED = [
  { column: documentFile.wrappedKey, label: 'files' },
  { column: documentFile.previewWrappedKey, label: 'previews' },
] as const;

/** How many wrapped data keys name each master key id. */
export async function wrappedKeyUsage(db: Db): Promise<Map<string, number>> {
  const usage = new Map<string, number>();
  for (const { column } of WRAPPED) {
    const rows = await db
      .select({ keyId: sql<string>`${keyIdOf(column)}`, count: sql<number>`count(*)::int` })
      .from(documentFile)
      .where(sql`${column} is not null`)
      .groupBy(keyIdOf(column));
    for (const row of rows) usage.set(row.keyId, (usage.get(row.keyId) ?? 0) + row.count);
  }
  return usage;
}

/** A wrapped key names a master key that is not configured: rotation stops, leaving what it did. */
export class MissingMasterKey extends Error {
  override name = 'MissingMasterKey';
  constructor(readonly keyId: string) {
    super(`A data key is wrapped by the master key ${keyId}, which is not configured`);
  }
}

function rewrap(masterKeys: readonly MasterKey[], wrapped: Buffer): Buffer {
  try {
    return wrapDataKey(masterKeys[0]!, unwrapDataKey(masterKeys, wrapped));
  } catch (error) {
    if (error instanceof DecryptionError && /is not configured/.test(error.message)) {
      throw new MissingMasterKey(/The master key (\S+) is not configured/.exec(error.message)?.[1] ?? '?');
    }
    throw error;
  }
}

/** Re-wraps one batch; how many rows it changed (0 when none is left). */
async function rewrapBatch(db: Db, masterKeys: readonly MasterKey[], batchSize: number): Promise<number> {
  const current = masterKeys[0]!.id;
  return db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: documentFile.id, wrappedKey: documentFile.wrappedKey, previewWrappedKey: documentFile.previewWrappedKey })
      .from(documentFile)
      .where(
        sql`${keyIdOf(documentFile.wrappedKey)} <> ${current} or (${documentFile.previewWrappedKey} is not null and ${keyIdOf(documentFile.previewWrappedKey)} <> ${current})`,
      )
      .orderBy(asc(documentFile.id))
      .limit(batchSize)
      .for('update');
    for (const row of rows) {
      await tx
        .update(documentFile)
        .set({
          wrappedKey: rewrap(masterKeys, row.wrappedKey),
          previewWrappedKey: row.previewWrappedKey ? rewrap(masterKeys, row.previewWrappedKey) : null,
        })
        .where(eq(documentFile.id, row.id));
    }
    return rows.length;
  });
}

/**
 * Re-wraps every data key that another master key wraps under `masterKeys[0]`,
 * `batchSize` rows per transaction. Returns how many rows changed. Throws
 * MissingMasterKey (after committing the batches before) when a row names a
 * key that is not in `masterKeys`.
 */
export async function rewrapDataKeys(
  db: Db,
  masterKeys: readonly MasterKey[],
  options: { batchSize?: number; onBatch?: (done: number) => void } = {},
): Promise<number> {
  let done = 0;
  for (;;) {
    const changed = await rewrapBatch(db, masterKeys, options.batchSize ?? 500);
    if (changed === 0) return done;
    done += changed;
    options.onBatch?.(done);
  }
}

/** Writes `text` to `file` whole or not at all: a temporary name, synced, renamed, the folder synced. */
async function writeDurably(file: string, text: string) {
  const temporary = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(temporary, text, { mode: 0o600, flag: 'wx' });
  const handle = await open(temporary, 'r');
  await handle.sync().finally(() => handle.close());
  await rename(temporary, file);
  const folder = await open(path.dirname(file), 'r');
  await folder.sync().finally(() => folder.close());
}

/**
 * Embedded mode's new master key: the current DATA_DIR/keys/master-key is
 * kept as DATA_DIR/keys/retired/<its id> (written first, so no moment lacks
 * it), then a fresh key replaces it. Undefined when no key was ever generated.
 */
export async function replaceGeneratedMasterKey(dataDir: string): Promise<{ previous: MasterKey; current: MasterKey; retiredFile: string } | undefined> {
  const file = generatedMasterKeyFile(dataDir);
  const text = (await readFile(file, 'utf8').catch(() => '')).trim();
  if (!text) return undefined;
  const previous = masterKeyFrom(text);
  const folder = retiredMasterKeyFolder(dataDir);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const retiredFile = path.join(folder, previous.id);
  await writeDurably(retiredFile, `${text}\n`);
  const fresh = randomBytes(32).toString('base64');
  await writeDurably(file, `${fresh}\n`);
  return { previous, current: masterKeyFrom(fresh), retiredFile };
}

type Print = (line: string) => void;

/** What `npm run cli -- rotate-master-key [--check]` does; returns the exit code. */
export async function rotateMasterKey(
  config: Pick<Config, 'masterKey' | 'retiredMasterKeys' | 'dataDir' | 'databaseUrl'>,
  db: Db,
  options: { check?: boolean; print: Print; batchSize?: number },
): Promise<number> {
  const { print } = options;
  const warn = { warn: (_details: object, message: string) => print(message) };
  if (options.check) return reportUsage(db, await resolveMasterKeys(config, warn), config, print);

  let masterKeys: MasterKey[];
  if (config.masterKey) {
    masterKeys = await resolveMasterKeys(config, warn);
    print(`Re-wrapping every data key under MASTER_KEY (${masterKeys[0]!.id}).`);
  } else if (config.databaseUrl) {
    // resolveMasterKeys names MASTER_KEY and how to make one.
    masterKeys = await resolveMasterKeys(config, warn);
  } else {
    const replaced = await replaceGeneratedMasterKey(config.dataDir);
    masterKeys = await resolveMasterKeys(config, warn);
    if (replaced) {
      print(
        `New master key ${replaced.current.id} in ${generatedMasterKeyFile(config.dataDir)}; the previous one, ${replaced.previous.id}, is kept in ${replaced.retiredFile}.`,
      );
    } else print(`Generated the first master key, ${masterKeys[0]!.id}, into ${generatedMasterKeyFile(config.dataDir)}.`);
  }

  let rewrapped: number;
  try {
    rewrapped = await rewrapDataKeys(db, masterKeys, {
      ...(options.batchSize ? { batchSize: options.batchSize } : {}),
      onBatch: (done) => print(`  ${done} file(s) re-wrapped…`),
    });
  } catch (error) {
    if (!(error instanceof MissingMasterKey)) throw error;
    print(
      `Stopped: some files' keys are wrapped by ${error.keyId}, which is not configured. Put that master key in MASTER_KEYS_RETIRED and run the command again; what was re-wrapped so far stays done.`,
    );
    return 65; // EX_DATAERR
  }
  print(`Re-wrapped ${rewrapped} file(s)' data keys under ${masterKeys[0]!.id}; no file body was touched.`);
  return reportUsage(db, masterKeys, config, print);
}

/** Which master keys the stored files need; 0 when only the current one, 1 otherwise. */
async function reportUsage(db: Db, masterKeys: readonly MasterKey[], config: Pick<Config, 'masterKey' | 'dataDir'>, print: Print): Promise<number> {
  const current = masterKeys[0]!.id;
  const usage = await wrappedKeyUsage(db);
  const others = [...usage.entries()].filter(([keyId]) => keyId !== current);
  if (others.length > 0) {
    for (const [keyId, count] of others) {
      const known = masterKeys.some((key) => key.id === keyId);
      print(`${count} data key(s) still wrapped by ${keyId}${known ? ' (a retired key)' : ' (NOT CONFIGURED: those files cannot be opened)'}.`);
    }
    print('Run `npm run cli -- rotate-master-key` to re-wrap them under the current key.');
    return 1;
  }
  print(`Every data key (${usage.get(current) ?? 0}) is wrapped by the current master key, ${current}.`);
  const retired = masterKeys.slice(1).map((key) => key.id);
  if (retired.length > 0) {
    const where = config.masterKey
      ? `MASTER_KEYS_RETIRED, ${retiredMasterKeyFolder(config.dataDir)} and ${generatedMasterKeyFile(config.dataDir)}, wherever they are`
      : retiredMasterKeyFolder(config.dataDir);
    print(
      `No file needs the retired key(s) ${retired.join(', ')} any more: they can be removed (${where}). ` +
        'Keep a copy apart for as long as you keep database backups made before the rotation: their rows still name them.',
    );
  }
  return 0;
}
