import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { storageBackends, useStorage } from '../../../test/storage';
import { DecryptionError } from '../crypto/streaming-aead';
import type { MasterKey } from '../crypto/key-wrap';
import { FileTooLarge, FileVault } from './file-vault';
import { masterKeyFrom, openObjectStore } from './open-vault';

const key = () => masterKeyFrom(randomBytes(32).toString('base64'));

async function readAll(stream: Readable) {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe.each(storageBackends)('FileVault on %s storage', (kind) => {
  const storage = useStorage(kind);

  /** A vault over a store of its own folder (disk) or the describe's bucket (s3); each test stores under its own prefix. */
  async function vaultWith(masterKeys: MasterKey[] = [key()]) {
    const config = { dataDir: await mkdtemp(path.join(tmpdir(), 'coverly-vault-')), s3: storage.s3 };
    const prefix = `files/${randomUUID()}`;
    const vault = new FileVault(await openObjectStore(config), masterKeys);
    const stored = async () => {
      const keys: string[] = [];
      for await (const entry of vault.objects.list()) if (entry.key.startsWith(`${prefix}/`)) keys.push(entry.key);
      return keys;
    };
    return { config, prefix, vault, stored, again: async (keys: MasterKey[]) => new FileVault(await openObjectStore(config), keys) };
  }

  it('stores a file encrypted and gives back the same bytes, whole or as a range', async () => {
    const { config, prefix, vault } = await vaultWith();
    const plain = randomBytes(200_000);
    const stored = await vault.store(Readable.from([plain.subarray(0, 70_000), plain.subarray(70_000)]), { prefix, maxBytes: 1e6 });
    expect(stored.objectKey.startsWith(`${prefix}/`)).toBe(true);
    expect(stored.size).toBe(plain.length);
    expect(stored.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(await readAll(await vault.open(stored))).toEqual(plain);
    expect(await readAll(await vault.open(stored, { start: 65_000, end: 140_000 }))).toEqual(plain.subarray(65_000, 140_001));
    const bytes = await readFile(storage.objectPath(config, stored.objectKey));
    expect(bytes.length).toBeGreaterThan(plain.length);
    expect(bytes.includes(plain.subarray(1000, 1016))).toBe(false);
  });

  it('refuses a body past its limit and keeps nothing of it', async () => {
    const { prefix, vault, stored } = await vaultWith();
    await expect(vault.store(Readable.from([randomBytes(600), randomBytes(600)]), { prefix, maxBytes: 1000 })).rejects.toBeInstanceOf(FileTooLarge);
    expect(await stored()).toEqual([]);
  });

  it('keeps nothing when the body fails half-way or the inspector refuses it', async () => {
    const { prefix, vault, stored } = await vaultWith();
    const broken = new Readable({ read() {} });
    broken.push(randomBytes(100_000));
    setTimeout(() => broken.destroy(new Error('client went away')), 10);
    await expect(vault.store(broken, { prefix, maxBytes: 1e6 })).rejects.toThrow('client went away');
    const refuse = () => {
      throw new Error('not a document');
    };
    await expect(vault.store(Readable.from([randomBytes(10)]), { prefix, maxBytes: 1e6, inspect: refuse })).rejects.toThrow('not a document');
    expect(await stored()).toEqual([]);
  });

  it('fails cleanly on a flipped byte and releases no plaintext of the altered segment', async () => {
    const { config, prefix, vault } = await vaultWith();
    const plain = randomBytes(150_000);
    const stored = await vault.store(Readable.from([plain]), { prefix, maxBytes: 1e6 });
    const file = storage.objectPath(config, stored.objectKey);
    const bytes = await readFile(file);
    bytes[bytes.length - 100]! ^= 0x01;
    await writeFile(file, bytes);
    const received: Buffer[] = [];
    const stream = await vault.open(stored);
    await expect(
      (async () => {
        for await (const chunk of stream) received.push(chunk as Buffer);
      })(),
    ).rejects.toBeInstanceOf(DecryptionError);
    // The first two segments were intact; nothing of the third (altered, last) one came out.
    expect(Buffer.concat(received).length).toBeLessThanOrEqual(2 * 64 * 1024);
    expect(plain.subarray(0, Buffer.concat(received).length)).toEqual(Buffer.concat(received));
  });

  it('re-wraps a data key under a new master key, and the old key can then go', async () => {
    const old = key();
    const { prefix, vault, again } = await vaultWith([old]);
    const plain = randomBytes(1000);
    const stored = await vault.store(Readable.from([plain]), { prefix, maxBytes: 1e6 });
    const fresh = key();
    const rotating = await again([fresh, old]);
    const rewrapped = rotating.rewrap(stored.wrappedKey);
    const retired = await again([fresh]);
    expect(await readAll(await retired.open({ ...stored, wrappedKey: rewrapped }))).toEqual(plain);
    await expect(retired.open(stored)).rejects.toBeInstanceOf(DecryptionError);
  });
});
