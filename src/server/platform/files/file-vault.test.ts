import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { DecryptionError } from '../crypto/streaming-aead';
import { createDiskStore } from '../storage/disk-store';
import { FileTooLarge, FileVault } from './file-vault';
import { masterKeyFrom } from './open-vault';

const key = () => masterKeyFrom(randomBytes(32).toString('base64'));

async function vaultOnDisk(masterKeys = [key()]) {
  const root = await mkdtemp(path.join(tmpdir(), 'coverly-vault-'));
  return { root, vault: new FileVault(await createDiskStore(root), masterKeys) };
}

async function readAll(stream: Readable) {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function storedObjects(root: string) {
  return (await readdir(root, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile() && !entry.parentPath.includes('.tmp'));
}

describe('FileVault', () => {
  it('stores a file encrypted and gives back the same bytes, whole or as a range', async () => {
    const { root, vault } = await vaultOnDisk();
    const plain = randomBytes(200_000);
    const stored = await vault.store(Readable.from([plain.subarray(0, 70_000), plain.subarray(70_000)]), { prefix: 'files/test', maxBytes: 1e6 });
    expect(stored.size).toBe(plain.length);
    expect(stored.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(await readAll(await vault.open(stored))).toEqual(plain);
    expect(await readAll(await vault.open(stored, { start: 65_000, end: 140_000 }))).toEqual(plain.subarray(65_000, 140_001));
    const [object] = await storedObjects(root);
    const bytes = await readFile(path.join(object!.parentPath, object!.name));
    expect(bytes.includes(plain.subarray(1000, 1016))).toBe(false);
  });

  it('refuses a body past its limit and keeps nothing of it', async () => {
    const { root, vault } = await vaultOnDisk();
    await expect(vault.store(Readable.from([randomBytes(600), randomBytes(600)]), { prefix: 'files/test', maxBytes: 1000 })).rejects.toBeInstanceOf(
      FileTooLarge,
    );
    expect(await storedObjects(root)).toEqual([]);
  });

  it('keeps nothing when the body fails half-way or the inspector refuses it', async () => {
    const { root, vault } = await vaultOnDisk();
    const broken = new Readable({ read() {} });
    broken.push(randomBytes(100_000));
    setTimeout(() => broken.destroy(new Error('client went away')), 10);
    await expect(vault.store(broken, { prefix: 'files/test', maxBytes: 1e6 })).rejects.toThrow('client went away');
    const refuse = () => {
      throw new Error('not a document');
    };
    await expect(vault.store(Readable.from([randomBytes(10)]), { prefix: 'files/test', maxBytes: 1e6, inspect: refuse })).rejects.toThrow('not a document');
    expect(await storedObjects(root)).toEqual([]);
  });

  it('fails cleanly on a flipped byte and releases no plaintext of the altered segment', async () => {
    const { root, vault } = await vaultOnDisk();
    const plain = randomBytes(150_000);
    const stored = await vault.store(Readable.from([plain]), { prefix: 'files/test', maxBytes: 1e6 });
    const [object] = await storedObjects(root);
    const file = path.join(object!.parentPath, object!.name);
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
  });

  it('re-wraps a data key under a new master key, and the old key can then go', async () => {
    const old = key();
    const { root, vault } = await vaultOnDisk([old]);
    const plain = randomBytes(1000);
    const stored = await vault.store(Readable.from([plain]), { prefix: 'files/test', maxBytes: 1e6 });
    const fresh = key();
    const rotating = new FileVault(await createDiskStore(root), [fresh, old]);
    const rewrapped = rotating.rewrap(stored.wrappedKey);
    const retired = new FileVault(await createDiskStore(root), [fresh]);
    expect(await readAll(await retired.open({ ...stored, wrappedKey: rewrapped }))).toEqual(plain);
    await expect(retired.open(stored)).rejects.toBeInstanceOf(DecryptionError);
  });
});
