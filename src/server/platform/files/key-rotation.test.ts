import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type Api } from '../../../test/api';
import { createLoan, createTeamWithOwner } from '../../../test/factories';
import { databasesAndStores, type StorageKind } from '../../../test/storage';
import { filesOfLoan, storeVersionFile } from '../../../test/stored-files';
import type { Backend } from '../../../test/databases';
import type { DocumentFileRow } from '../../db/schema';
import type { MasterKey } from '../crypto/key-wrap';
import { DecryptionError } from '../crypto/streaming-aead';
import { FileVault } from './file-vault';
import { rewrapDataKeys, rotateMasterKey, wrappedKeyUsage } from './key-rotation';
import { generatedMasterKeyFile, masterKeyFrom, resolveMasterKeys, retiredMasterKeyFolder } from './open-vault';

const newKeyText = () => randomBytes(32).toString('base64');
const silent = { warn() {} };

/** A loan with three stored files (one with a preview), and what each holds. */
async function loanWithFiles(api: Api) {
  const team = await createTeamWithOwner(api);
  const loan = await createLoan(api, team.teamId, team.owner);
  const plain = [randomBytes(70_000), randomBytes(10), randomBytes(200_000)];
  const previews = new Map<string, Buffer>();
  for (const [index, bytes] of plain.entries()) {
    const preview = index === 2 ? randomBytes(5000) : undefined;
    const row = await storeVersionFile(api, { loanId: loan.id, bytes, ...(preview ? { preview } : {}) });
    if (preview) previews.set(row.id, preview);
  }
  const rows = await filesOfLoan(api, loan.id);
  return { loanId: loan.id, rows, plain, previews };
}

/** Every stored object's bytes, read behind the store's back. */
async function objectBytes(api: Api, rows: DocumentFileRow[]) {
  const keys = rows.flatMap((row) => [row.objectKey, ...(row.previewObjectKey ? [row.previewObjectKey] : [])]);
  return Promise.all(keys.map((key) => readFile(api.storage.objectPath(api.config, key))));
}

async function opens(vault: FileVault, row: DocumentFileRow, preview = false) {
  return buffer(await vault.open(preview ? { objectKey: row.previewObjectKey!, wrappedKey: row.previewWrappedKey!, size: row.previewSize! } : row));
}

const lines = () => {
  const printed: string[] = [];
  return { printed, print: (line: string) => void printed.push(line) };
};

describe.each(databasesAndStores)('rotate-master-key with MASTER_KEY on %s with %s storage', (backend: Backend, storage: StorageKind) => {
  const oldKey = newKeyText();
  const api = setupApi(backend, { storage, env: { MASTER_KEY: oldKey } });
  // The tests run in order: each starts from the key the one before rotated to.
  let currentKey = oldKey;
  const vaultWith = (keys: MasterKey[]) => new FileVault(api.files.objects, keys);

  it('re-wraps every data key under the new key without touching a file body; the old key can then go', async () => {
    const { loanId, rows, plain, previews } = await loanWithFiles(api);
    const before = await objectBytes(api, rows);
    const newKey = newKeyText();
    const config = { ...api.config, masterKey: newKey, retiredMasterKeys: [oldKey] };
    const out = lines();
    expect(await rotateMasterKey(config, api.db, { print: out.print, batchSize: 2 })).toBe(0);
    const newId = masterKeyFrom(newKey).id;
    expect(out.printed).toContain(`Re-wrapped 3 file(s)' data keys under ${newId}; no file body was touched.`);
    expect(out.printed.join('\n')).toContain(`No file needs the retired key(s) ${masterKeyFrom(oldKey).id} any more: they can be removed (MASTER_KEYS_RETIRED`);
    expect(await wrappedKeyUsage(api.db)).toEqual(new Map([[newId, 4]]));

    const after = await filesOfLoan(api, loanId);
    expect(await objectBytes(api, after)).toEqual(before);
    const onlyNew = vaultWith([masterKeyFrom(newKey)]);
    const onlyOld = vaultWith([masterKeyFrom(oldKey)]);
    for (const [index, row] of after.entries()) {
      expect(await opens(onlyNew, row)).toEqual(plain[index]);
      await expect(onlyOld.open(row)).rejects.toBeInstanceOf(DecryptionError);
      if (previews.has(row.id)) {
        expect(await opens(onlyNew, row, true)).toEqual(previews.get(row.id));
        await expect(opens(onlyOld, row, true)).rejects.toBeInstanceOf(DecryptionError);
      }
    }

    // Again: nothing left to do, and the check agrees.
    const again = lines();
    expect(await rotateMasterKey(config, api.db, { print: again.print })).toBe(0);
    expect(again.printed).toContain(`Re-wrapped 0 file(s)' data keys under ${newId}; no file body was touched.`);
    expect(await rotateMasterKey({ ...config, retiredMasterKeys: [] }, api.db, { check: true, print: () => {} })).toBe(0);
    currentKey = newKey;
  });

  it('picks up where an interrupted rotation stopped', async () => {
    const next = masterKeyFrom(newKeyText());
    // The app still stores under the old key: its new files need it as well.
    const keys = [next, masterKeyFrom(currentKey), masterKeyFrom(oldKey)];
    await loanWithFiles(api);
    const total = [...(await wrappedKeyUsage(api.db)).values()].reduce((a, b) => a + b, 0);
    await expect(
      rewrapDataKeys(api.db, keys, {
        batchSize: 2,
        onBatch: () => {
          throw new Error('the process was killed');
        },
      }),
    ).rejects.toThrow('the process was killed');
    // The first batch (two rows) committed; the rest still names the older key.
    expect((await wrappedKeyUsage(api.db)).get(next.id)).toBeGreaterThanOrEqual(2);
    expect((await wrappedKeyUsage(api.db)).get(next.id)).toBeLessThan(total);
    await rewrapDataKeys(api.db, keys);
    expect(await wrappedKeyUsage(api.db)).toEqual(new Map([[next.id, total]]));
    currentKey = next.key.toString('base64');
  });

  it('stops, naming the key, when files need a master key that is not configured', async () => {
    const wrappedBy = [...(await wrappedKeyUsage(api.db)).keys()];
    expect(wrappedBy).toEqual([masterKeyFrom(currentKey).id]);
    const out = lines();
    const config = { ...api.config, masterKey: newKeyText(), retiredMasterKeys: [] };
    expect(await rotateMasterKey(config, api.db, { print: out.print })).toBe(65);
    expect(out.printed.join('\n')).toContain(`wrapped by ${wrappedBy[0]}, which is not configured. Put that master key in MASTER_KEYS_RETIRED`);
    const check = lines();
    expect(await rotateMasterKey(config, api.db, { check: true, print: check.print })).toBe(1);
    expect(check.printed.join('\n')).toContain('(NOT CONFIGURED: those files cannot be opened)');
  });
});

describe.each(databasesAndStores)('rotate-master-key in embedded mode on %s with %s storage', (backend: Backend, storage: StorageKind) => {
  // No MASTER_KEY: the key is the one generated into DATA_DIR/keys.
  const api = setupApi(backend, { storage, env: { MASTER_KEY: '' } });
  let files: Awaited<ReturnType<typeof loanWithFiles>>;
  beforeAll(async () => {
    files = await loanWithFiles(api);
  });

  it('generates a new key into DATA_DIR/keys, keeps the old one as retired, and re-wraps every data key', async () => {
    const keyFile = generatedMasterKeyFile(api.config.dataDir);
    const oldText = (await readFile(keyFile, 'utf8')).trim();
    const oldId = masterKeyFrom(oldText).id;
    const before = await objectBytes(api, files.rows);
    const out = lines();
    expect(await rotateMasterKey(api.config, api.db, { print: out.print })).toBe(0);

    const newText = (await readFile(keyFile, 'utf8')).trim();
    const newId = masterKeyFrom(newText).id;
    expect(newId).not.toBe(oldId);
    expect(await readdir(retiredMasterKeyFolder(api.config.dataDir))).toEqual([oldId]);
    expect((await readFile(path.join(retiredMasterKeyFolder(api.config.dataDir), oldId), 'utf8')).trim()).toBe(oldText);
    expect(out.printed[0]).toBe(
      `New master key ${newId} in ${keyFile}; the previous one, ${oldId}, is kept in ${path.join(retiredMasterKeyFolder(api.config.dataDir), oldId)}.`,
    );
    expect((await resolveMasterKeys(api.config, silent)).map((key) => key.id)).toEqual([newId, oldId]);
    expect(out.printed.join('\n')).toContain(`${oldId} any more: they can be removed (${retiredMasterKeyFolder(api.config.dataDir)}).`);
    expect(await wrappedKeyUsage(api.db)).toEqual(new Map([[newId, 4]]));

    const after = await filesOfLoan(api, files.loanId);
    expect(await objectBytes(api, after)).toEqual(before);
    for (const [index, row] of after.entries()) {
      expect(await opens(new FileVault(api.files.objects, [masterKeyFrom(newText)]), row)).toEqual(files.plain[index]);
      await expect(new FileVault(api.files.objects, [masterKeyFrom(oldText)]).open(row)).rejects.toBeInstanceOf(DecryptionError);
    }
  });

  it('reads the generated and retired keys when MASTER_KEY is set later, so a move to MASTER_KEY loses no file', async () => {
    const generated = masterKeyFrom((await readFile(generatedMasterKeyFile(api.config.dataDir), 'utf8')).trim());
    const masterKey = newKeyText();
    const keys = await resolveMasterKeys({ ...api.config, masterKey }, silent);
    expect(keys[0]!.id).toBe(masterKeyFrom(masterKey).id);
    expect(keys.map((key) => key.id)).toContain(generated.id);
    const out = lines();
    expect(await rotateMasterKey({ ...api.config, masterKey }, api.db, { print: out.print })).toBe(0);
    expect(await wrappedKeyUsage(api.db)).toEqual(new Map([[masterKeyFrom(masterKey).id, 4]]));
  });
});
