import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { fileTypeFromBuffer } from 'file-type';
import { beforeAll, describe, expect, it } from 'vitest';
import { leaseJpeg, leasePdf, noisePng } from '../../../test/sample-files';
import { findPlaintext } from '../../../test/plaintext-scan';
import { storageBackends, useStorage, type RawFile } from '../../../test/storage';
import { CIPHERTEXT_SEGMENT, DecryptionError, headerLength, PLAINTEXT_SEGMENT } from '../crypto/streaming-aead';
import { FileVault, type StoredFile } from './file-vault';
import { masterKeyFrom, openObjectStore } from './open-vault';
import { checkStorage } from './storage-check';

/** Reads a stream to its end; what came out before it failed, and the failure. */
async function drain(stream: Readable): Promise<{ received: Buffer; error: unknown }> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return { received: Buffer.concat(chunks), error: undefined };
  } catch (error) {
    return { received: Buffer.concat(chunks), error };
  }
}

async function* asRawFiles(named: Record<string, Buffer>): AsyncGenerator<RawFile> {
  for (const [name, bytes] of Object.entries(named)) yield { name, bytes };
}

/**
 * The proof that storage holds no plaintext (issue 16): known documents go
 * through the FileVault into each store, and then every file the store
 * holds is read raw, behind its back. The API-level proof through the upload
 * routes uses the same helpers (findPlaintext, storage.rawFiles).
 */
describe.each(storageBackends)('encryption at rest on %s storage', (kind) => {
  const storage = useStorage(kind);
  let config: { dataDir: string; s3: typeof storage.s3 };
  let vault: FileVault;
  let documents: Record<'pdf' | 'png' | 'jpeg' | 'preview', Buffer>;
  let stored: Record<keyof typeof documents, StoredFile>;

  beforeAll(async () => {
    config = { dataDir: await mkdtemp(path.join(tmpdir(), 'coverly-proof-')), s3: storage.s3 };
    vault = new FileVault(await openObjectStore(config), [masterKeyFrom(randomBytes(32).toString('base64'))]);
    documents = { pdf: await leasePdf(), png: noisePng(), jpeg: leaseJpeg(), preview: leaseJpeg(20_000) };
    stored = {} as typeof stored;
    for (const [name, bytes] of Object.entries(documents) as [keyof typeof documents, Buffer][]) {
      // Streamed in uneven pieces, as a browser's upload arrives.
      const pieces = [];
      for (let at = 0; at < bytes.length; at += 7919) pieces.push(bytes.subarray(at, at + 7919));
      stored[name] = await vault.store(Readable.from(pieces), { prefix: 'files/proof', maxBytes: bytes.length });
    }
    // An upload that broke off half-way leaves nothing readable either.
    const broken = new Readable({ read() {} });
    broken.push(documents.pdf.subarray(0, 40_000));
    setTimeout(() => broken.destroy(new Error('the client went away')), 5);
    await expect(vault.store(broken, { prefix: 'files/proof', maxBytes: 1e6 })).rejects.toThrow('the client went away');
  });

  it('stores real PDF, PNG and JPEG files spanning several segments, and gives each back whole', async () => {
    expect((await fileTypeFromBuffer(documents.pdf))?.mime).toBe('application/pdf');
    expect((await fileTypeFromBuffer(documents.png))?.mime).toBe('image/png');
    expect((await fileTypeFromBuffer(documents.jpeg))?.mime).toBe('image/jpeg');
    for (const name of ['pdf', 'png', 'jpeg'] as const) expect(documents[name].length).toBeGreaterThan(PLAINTEXT_SEGMENT);
    for (const name of Object.keys(documents) as (keyof typeof documents)[]) expect(await buffer(await vault.open(stored[name]))).toEqual(documents[name]);
  });

  it('holds no 16-byte window of any of them, nor their magic bytes, in any stored byte', async () => {
    const raw: RawFile[] = [];
    for await (const file of storage.rawFiles(config)) raw.push(file);
    // Every object is there to be read (and, on S3, its metadata beside it).
    const objectBytes = raw.filter((file) => !file.name.includes('._S3rver_') || file.name.endsWith('._S3rver_object'));
    expect(objectBytes).toHaveLength(Object.keys(stored).length);
    expect(await findPlaintext(asRawFiles(Object.fromEntries(raw.map((file) => [file.name, file.bytes]))), Object.values(documents))).toEqual([]);
  });

  it('would see plaintext if it were there (the check is not blind)', async () => {
    const findings = await findPlaintext(
      asRawFiles({ 'lease.pdf': documents.pdf, 'photo.jpg': documents.jpeg, 'scan.png': documents.png }),
      Object.values(documents),
    );
    for (const [file, type] of [
      ['lease.pdf', 'PDF'],
      ['photo.jpg', 'JPEG'],
      ['scan.png', 'PNG'],
    ]) {
      expect(findings).toContainEqual({ file, what: type, offset: 0 });
      expect(findings).toContainEqual({ file, what: 'not encrypted', offset: 0 });
      expect(findings.some((finding) => finding.file === file && finding.what.startsWith('window of plaintext'))).toBe(true);
    }
  });

  it('check-storage finds every object encrypted, and points at a plaintext one', async () => {
    const clean = await checkStorage(vault.objects);
    expect(clean).toMatchObject({ objects: Object.keys(stored).length, suspicious: [] });
    await vault.objects.put('files/proof/plain-copy', Readable.from([documents.pdf]));
    const report = await checkStorage(vault.objects);
    expect(report.suspicious).toEqual([
      {
        key: 'files/proof/plain-copy',
        findings: expect.arrayContaining([
          { what: 'PDF', offset: 0 },
          { what: 'not encrypted', offset: 0 },
        ]),
      },
    ]);
    await vault.objects.delete('files/proof/plain-copy');
  });

  /** Alters one byte of a stored object where the store keeps it; gives back a function that restores it. */
  async function flipByte(file: StoredFile, at: (bytes: Buffer) => number) {
    const where = storage.objectPath(config, file.objectKey);
    const original = await readFile(where);
    const altered = Buffer.from(original);
    altered[at(altered)]! ^= 0x40;
    await writeFile(where, altered);
    return () => writeFile(where, original);
  }

  it('fails a download cleanly on a flipped byte: a DecryptionError, and nothing of the altered segment or after it', async () => {
    const plain = documents.png;
    const start = headerLength(vault.currentKey.id);
    // A byte in the second segment's ciphertext.
    const restore = await flipByte(stored.png, () => start + CIPHERTEXT_SEGMENT + 1000);
    try {
      const { received, error } = await drain(await vault.open(stored.png));
      expect(error).toBeInstanceOf(DecryptionError);
      expect((error as Error).message).toBe('Segment 1 failed authentication: the stored file was altered or cut short');
      // Only the first segment, which was intact and authenticated, came out.
      expect(received).toEqual(plain.subarray(0, PLAINTEXT_SEGMENT));
      // A range inside the altered segment fails before a byte; one inside the first still reads.
      const inside = await drain(await vault.open(stored.png, { start: PLAINTEXT_SEGMENT + 10, end: PLAINTEXT_SEGMENT + 500 }));
      expect(inside).toMatchObject({ received: Buffer.alloc(0), error: expect.any(DecryptionError) });
      expect(await buffer(await vault.open(stored.png, { start: 10, end: 500 }))).toEqual(plain.subarray(10, 501));
    } finally {
      await restore();
    }
    expect(await buffer(await vault.open(stored.png))).toEqual(plain);
  });

  it('fails before releasing a byte when the header or the first segment was altered, or the object was cut short', async () => {
    for (const at of [() => 5 /* the key id */, () => headerLength(vault.currentKey.id) + 3]) {
      const restore = await flipByte(stored.pdf, at);
      try {
        const { received, error } = await drain(await vault.open(stored.pdf));
        expect(error).toBeInstanceOf(DecryptionError);
        expect(received).toHaveLength(0);
      } finally {
        await restore();
      }
    }
    const where = storage.objectPath(config, stored.jpeg.objectKey);
    const original = await readFile(where);
    await writeFile(where, original.subarray(0, headerLength(vault.currentKey.id) + 2 * CIPHERTEXT_SEGMENT));
    try {
      const { received, error } = await drain(await vault.open(stored.jpeg));
      expect(error).toBeInstanceOf(DecryptionError);
      // Cut at a segment boundary: the two segments there were not marked last, so the end is caught.
      expect(received.length).toBeLessThanOrEqual(2 * PLAINTEXT_SEGMENT);
      expect(received).toEqual(documents.jpeg.subarray(0, received.length));
    } finally {
      await writeFile(where, original);
    }
  });
});
